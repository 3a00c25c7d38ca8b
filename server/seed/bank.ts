// The members' registered bank accounts, where withdrawals are paid (spec 001 §7 "Targets and
// payment information", `entity/client/{id}/bank`; docs/platform-api.md "Portfolio"). Seeded last
// and fixed (no random draws), so no earlier row or id moves.
import type { Db } from "../db/connection";
import { clientBankAccounts } from "../db/schema";

export type BankPeople = { client: number; partner: number };

export function seedBankAccounts(db: Db, people: BankPeople): void {
  db.insert(clientBankAccounts)
    .values([
      // demo.client (Eleanor Hartley): her default account and a second, joint one
      {
        entityId: people.client,
        bankName: "Barclays",
        accountName: "Mrs E Hartley",
        sortCode: "20-45-77",
        bsb: null,
        accountNumber: "41236655",
        isDefault: true,
      },
      {
        entityId: people.client,
        bankName: "Nationwide Building Society",
        accountName: "Mr J and Mrs E Hartley",
        sortCode: "07-04-36",
        bsb: null,
        accountNumber: "70918842",
        isDefault: false,
      },
      // demo.partner (James Hartley)
      {
        entityId: people.partner,
        bankName: "Lloyds Bank",
        accountName: "Mr J E Hartley",
        sortCode: "30-94-57",
        bsb: null,
        accountNumber: "02718364",
        isDefault: true,
      },
    ])
    .run();
}
