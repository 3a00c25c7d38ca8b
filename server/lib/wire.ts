// The platform's typed values (design: "The platform's wire format").
export type WireDate = { _type: "Date"; _val: string };
export type WireDateTime = { _type: "DateTime"; _val: string };
export type WireMoney = { code: string; value: { _type: "BigDecimal"; _val: string } };

export function wireDate(value: string | null | undefined): WireDate | null {
  return value ? { _type: "Date", _val: value.slice(0, 10) } : null;
}

/** Date-times go out in UTC without milliseconds: 2024-05-01T09:30:00Z. */
export function wireDateTime(value: string | Date | null | undefined): WireDateTime | null {
  if (!value) return null;
  const iso = (value instanceof Date ? value : new Date(value)).toISOString();
  return { _type: "DateTime", _val: iso.replace(/\.\d{3}Z$/, "Z") };
}

export function wireMoney(code: string, amount: string | number): WireMoney {
  const val = typeof amount === "number" ? amount.toFixed(2) : amount;
  return { code, value: { _type: "BigDecimal", _val: val } };
}
