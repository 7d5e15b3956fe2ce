import { assertEquals } from "@std/assert";
import { cutoffFor, prune, PRUNE_BATCH_SIZE, type Pruner } from "./retention.ts";

Deno.test("the cutoff is midnight UTC, retentionDays back", () => {
  const now = new Date("2025-03-10T17:45:12Z");
  assertEquals(cutoffFor(now, 1).toISOString(), "2025-03-09T00:00:00.000Z");
  assertEquals(cutoffFor(now, 14).toISOString(), "2025-02-24T00:00:00.000Z");
});

class FakePruner implements Pruner {
  calls: { cutoff: Date; limit?: number }[] = [];
  incidentCutoff: Date | null = null;
  constructor(private remaining: number) {}

  deleteResultsBefore(cutoff: Date, limit: number): Promise<number> {
    this.calls.push({ cutoff, limit });
    const n = Math.min(limit, this.remaining);
    this.remaining -= n;
    return Promise.resolve(n);
  }

  deleteIncidentsBefore(cutoff: Date): Promise<number> {
    this.incidentCutoff = cutoff;
    return Promise.resolve(2);
  }
}

Deno.test("prune deletes in batches until a short batch", async () => {
  const fake = new FakePruner(PRUNE_BATCH_SIZE * 2 + 17);
  const now = new Date("2025-03-10T03:00:00Z");
  const report = await prune(fake, 14, now, 0);
  assertEquals(report.results, PRUNE_BATCH_SIZE * 2 + 17);
  assertEquals(report.batches, 3);
  assertEquals(report.incidents, 2);
  assertEquals(fake.calls.every((c) => c.limit === PRUNE_BATCH_SIZE), true);
  assertEquals(fake.incidentCutoff?.toISOString(), "2025-02-10T00:00:00.000Z");
});

Deno.test("nothing to prune is one empty batch", async () => {
  const fake = new FakePruner(0);
  const report = await prune(fake, 3, new Date("2025-03-10T03:00:00Z"), 0);
  assertEquals(report, {
    cutoff: new Date("2025-03-07T00:00:00Z"),
    results: 0,
    incidents: 2,
    batches: 1,
  });
});
