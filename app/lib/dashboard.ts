// Display rules of the home dashboard and the charts (spec 001 §2.1, §4 "Chart display", §9).
// Pure: shared by the server and the browser.

/** spec 001 §2.1 and §9: tiles show values at 0 decimals, tables at 2. */
export const TILE_DECIMALS = 0;
export const TABLE_DECIMALS = 2;

/** spec 001 §9 "Tile switch thresholds: own > 9, linked > 8, combined > 13". */
const MAX_OWN_TILES = 9;
const MAX_LINKED_TILES = 8;
const MAX_COMBINED_TILES = 13;

/** spec 001 §2.1: the account summary shows tiles until there are too many accounts for them. */
export function summaryLayout({ own, linked }: { own: number; linked: number }): "tiles" | "table" {
  return own > MAX_OWN_TILES || linked > MAX_LINKED_TILES || own + linked > MAX_COMBINED_TILES ? "table" : "tiles";
}

/** spec 001 §2.1 "Radial circle: radius 35, stroke 5 for account tiles; radius 45, stroke 8 for group tiles." */
export const RADIAL = {
  account: { radius: 35, stroke: 5 },
  group: { radius: 45, stroke: 8 },
} as const;

export type RadialKind = keyof typeof RADIAL;

export type RadialGeometry = {
  /** Width and height of the square SVG: the ring's outer diameter. */
  size: number;
  /** Centre of the ring on both axes. */
  centre: number;
  radius: number;
  stroke: number;
  circumference: number;
  /** `stroke-dashoffset` with `stroke-dasharray` = circumference: the part of the ring left empty. */
  dashOffset: number;
};

/**
 * The ring of a tile's radial percentage: a `<circle r={radius} stroke-width={stroke}>` centred in a
 * square of `size`, its dash offset showing `percent` (clamped to 0–100) of the circumference.
 */
export function radialGeometry(kind: RadialKind, percent: number): RadialGeometry {
  const { radius, stroke } = RADIAL[kind];
  const size = 2 * radius + stroke;
  const circumference = 2 * Math.PI * radius;
  const share = Number.isFinite(percent) ? Math.min(100, Math.max(0, percent)) / 100 : 0;
  return { size, centre: size / 2, radius, stroke, circumference, dashOffset: circumference * (1 - share) };
}
