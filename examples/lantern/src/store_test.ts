/**
 * Integration tests against a real Postgres. They only run when
 * LANTERN_TEST_DATABASE_URL points at a throwaway database (CI provides one).
 */
import { assertEquals } from "@std/assert";
import { fromFileUrl } from "@std/path";
import { connect, dailyUptime, insertResult, latestResults, migrate, syncMonitors } from "./store.ts";
import { prune, sqlPruner } from "./retention.ts";

const url = Deno.env.get("LANTERN_TEST_DATABASE_URL");
const migrations = fromFileUrl(new URL("../migrations", import.meta.url));

Deno.test({
  name: "results round-trip and old ones are pruned",
  ignore: !url,
  sanitizeResources: false,
  async fn() {
    const sql = connect(url!, 2);
    try {
      await sql`drop table if exists check_results, incidents, monitors, schema_migrations cascade`;
      assertEquals(await migrate(sql, migrations), ["001_init.sql"]);
      assertEquals(await migrate(sql, migrations), []);

      await syncMonitors(sql, [{ id: "api", name: "API", url: "https://api.example.test" }]);
      const now = Date.now();
      for (const [daysAgo, outcome] of [[0, "up"], [0, "down"], [1, "up"], [40, "up"]] as const) {
        await insertResult(sql, {
          monitorId: "api",
          checkedAt: new Date(now - daysAgo * 86_400_000),
          outcome,
          status: outcome === "up" ? 200 : 500,
          latencyMs: 120,
        });
      }
      const latest = await latestResults(sql);
      assertEquals(latest.length, 1);

      const days = await dailyUptime(sql, "api", 7);
      assertEquals(days.reduce((n, d) => n + d.checks, 0), 3);

      const report = await prune(sqlPruner(sql), 30, new Date(now), 0);
      assertEquals(report.results, 1);
    } finally {
      await sql.end();
    }
  },
});
