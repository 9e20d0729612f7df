import { createHash } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { afterAll, describe, expect, it } from "vitest";
import { MIGRATIONS_FOLDER } from "@/db/client";

// Migration 0011 takes the bytes out of the file rows of an existing database: each distinct content
// becomes one object in file_objects, each row keeps its key, and no bytea column of a file row remains.

const dir = mkdtempSync(join(tmpdir(), "file-objects-migration-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const hex = (bytes: Uint8Array) => `\\x${Buffer.from(bytes).toString("hex")}`;

describe("migration 0011 (file objects)", () => {
  it("moves existing document, sealed, certificate and scanback bytes into one object per distinct content", async () => {
    const before = join(dir, "before");
    cpSync(MIGRATIONS_FOLDER, before, { recursive: true });
    const journal = JSON.parse(readFileSync(join(before, "meta/_journal.json"), "utf8")) as { entries: { idx: number; tag: string }[] };
    const tag = journal.entries.find((e) => e.idx === 11)!.tag;
    rmSync(join(before, `${tag}.sql`));
    writeFileSync(join(before, "meta/_journal.json"), JSON.stringify({ ...journal, entries: journal.entries.filter((e) => e.idx < 11) }));

    const client = await PGlite.create({ extensions: { pg_trgm } });
    try {
      await migrate(drizzle(client), { migrationsFolder: before });
      const pdf = new TextEncoder().encode("%PDF-1.7 shared by two packages");
      const sealed = new TextEncoder().encode("%PDF-1.7 sealed");
      const certificate = new TextEncoder().encode("%PDF-1.7 certificate");
      const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
      await client.exec(`
        insert into organizations (id, name, slug) overriding system value values (1, 'Org', 'org');
        insert into companies (id, organization_id, name) overriding system value values (1, 1, 'Co');
        insert into locations (id, organization_id, company_id, name) overriding system value values (1, 1, 1, 'Loc');
        insert into signing_packages (id, organization_id, company_id, location_id, title) values
          ('00000000-0000-7000-8000-000000000001', 1, 1, 1, 'A'), ('00000000-0000-7000-8000-000000000002', 1, 1, 1, 'B');
        insert into package_documents (id, package_id, name, content, size_bytes, sha256, page_count) values
          ('00000000-0000-7000-8000-0000000000d1', '00000000-0000-7000-8000-000000000001', 'a.pdf', '${hex(pdf)}', ${pdf.length}, '${sha256(pdf)}', 1),
          ('00000000-0000-7000-8000-0000000000d2', '00000000-0000-7000-8000-000000000002', 'b.pdf', '${hex(pdf)}', ${pdf.length}, '${sha256(pdf)}', 1);
        insert into sealed_documents (id, package_id, document_id, content, size_bytes, sha256) values
          ('00000000-0000-7000-8000-0000000000e1', '00000000-0000-7000-8000-000000000001', '00000000-0000-7000-8000-0000000000d1', '${hex(sealed)}', ${sealed.length}, '${sha256(sealed)}');
        insert into package_seals (id, package_id, certificate, certificate_sha256) values
          ('00000000-0000-7000-8000-0000000000f1', '00000000-0000-7000-8000-000000000001', '${hex(certificate)}', '${sha256(certificate)}'),
          ('00000000-0000-7000-8000-0000000000f2', '00000000-0000-7000-8000-000000000002', null, null);
        insert into scanback_pages (id, package_id, upload_id, source_name, source_page, image, content_type, outcome) values
          ('00000000-0000-7000-8000-0000000000a1', '00000000-0000-7000-8000-000000000002', '00000000-0000-7000-8000-0000000000b1', 'scan.png', 1, '${hex(png)}', 'image/png', 'unreadable');
      `);

      await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });

      const objects = (await client.query<{ key: string; sha256: string; size_bytes: number; content_type: string; content: Uint8Array }>(`select * from file_objects order by key`)).rows;
      const expected = [
        [pdf, "application/pdf"],
        [sealed, "application/pdf"],
        [certificate, "application/pdf"],
        [png, "image/png"],
      ] as const;
      expect(objects.map((o) => o.key).sort()).toEqual(expected.map(([b]) => `sha256/${sha256(b)}`).sort());
      for (const [bytes, type] of expected) {
        const object = objects.find((o) => o.key === `sha256/${sha256(bytes)}`)!;
        expect(object).toMatchObject({ sha256: sha256(bytes), content_type: type });
        expect(Number(object.size_bytes)).toBe(bytes.length);
        expect(Buffer.from(object.content).equals(Buffer.from(bytes))).toBe(true);
      }
      const keys = async (query: string) => (await client.query<{ k: string | null }>(query)).rows.map((r) => r.k);
      expect(await keys(`select storage_key as k from package_documents`)).toEqual([`sha256/${sha256(pdf)}`, `sha256/${sha256(pdf)}`]);
      expect(await keys(`select storage_key as k from sealed_documents`)).toEqual([`sha256/${sha256(sealed)}`]);
      expect(await keys(`select certificate_storage_key as k from package_seals order by id`)).toEqual([`sha256/${sha256(certificate)}`, null]);
      const [page] = (await client.query<{ image_storage_key: string; image_size_bytes: number; image_sha256: string }>(`select * from scanback_pages`)).rows;
      expect(page).toMatchObject({ image_storage_key: `sha256/${sha256(png)}`, image_size_bytes: png.length, image_sha256: sha256(png) });
      const bytea = (await client.query<{ table_name: string }>(`select table_name from information_schema.columns where table_schema = 'public' and data_type = 'bytea' order by table_name`)).rows;
      expect(bytea.map((c) => c.table_name)).toEqual(["chattel_document_files", "file_objects", "organization_logos"]);
    } finally {
      await client.close();
    }
  });
});
