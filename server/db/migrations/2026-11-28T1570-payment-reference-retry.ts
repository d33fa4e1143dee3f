// A household's payment reference is 8 random hexadecimal characters (decision 0129), and unique. The first trigger
// drew once, so an insert whose draw hit an existing reference failed: rare for a unit's 60 households, about one
// insert in eight on the way to 33,000. The trigger now draws again while the code is taken, three times, and then
// takes 16 characters: a household is always made.
import { type Kysely, sql } from 'kysely'

const draw = (chars: number) => sql.raw(`upper(hex(randomblob(${chars / 2})))`)
const free = (chars: number) =>
  sql`(select "code" from (select ${draw(chars)} as "code")
    where not exists (select 1 from "households" where "payment_reference" = "code"))`

export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop trigger "households_payment_reference_new"`.execute(db)
  await sql`
    create trigger "households_payment_reference_new" after insert on "households"
    when new."payment_reference" is null
    begin update "households" set "payment_reference" = coalesce(${free(8)}, ${free(8)}, ${free(8)}, ${draw(16)})
    where "id" = new."id"; end`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger "households_payment_reference_new"`.execute(db)
  await sql`
    create trigger "households_payment_reference_new" after insert on "households"
    when new."payment_reference" is null
    begin update "households" set "payment_reference" = upper(hex(randomblob(4))) where "id" = new."id"; end`.execute(db)
}
