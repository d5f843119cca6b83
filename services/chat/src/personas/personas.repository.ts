import type { SqlSession } from '@app/kit';

export interface PersonaRow {
  owner_id: string;
  name: string;
  description: string;
}

/** The member's chat persona: one row per member, absent until they set one. */
export class PersonasRepository {
  constructor(private readonly session: SqlSession) {}

  async find(ownerId: string): Promise<PersonaRow | null> {
    const rows = await this.session.query<PersonaRow>(
      `SELECT "owner_id", "name", "description" FROM "chat"."member_personas" WHERE "owner_id" = $1`,
      [ownerId],
    );
    return rows[0] ?? null;
  }

  async save(ownerId: string, name: string, description: string): Promise<PersonaRow> {
    const rows = await this.session.query<PersonaRow>(
      `INSERT INTO "chat"."member_personas" ("owner_id", "name", "description") VALUES ($1, $2, $3)
       ON CONFLICT ("owner_id") DO UPDATE SET "name" = EXCLUDED."name", "description" = EXCLUDED."description", "updated_at" = now()
       RETURNING "owner_id", "name", "description"`,
      [ownerId, name, description],
    );
    return rows[0]!;
  }
}
