// The tables a run prints: per step, and per process of the platform.
import type { ProcessUsage } from './procs.ts';
import type { StepSummary } from './stats.ts';
import { goalOf } from './steps.ts';

const ms = (n: number) => (Number.isNaN(n) ? '-' : n < 10 ? n.toFixed(1) : n.toFixed(0));

/** Right-aligns every column but the first; a header row, a rule, the rows. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const line = (cells: readonly string[]) => cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** Whether a step met its goal: no errors and p99 within it. */
export function meetsGoal(s: StepSummary): boolean | null {
  const goal = goalOf(s.step);
  if (goal === null) return s.errors === 0 ? null : false;
  return s.errors === 0 && s.count > 0 && s.p99 <= goal;
}

export function stepTable(steps: readonly StepSummary[]): string {
  const rows = steps.map((s) => {
    const goal = goalOf(s.step);
    const met = meetsGoal(s);
    return [
      s.step,
      String(s.count),
      s.perSecond.toFixed(2),
      String(s.errors),
      String(s.refused),
      String(s.retries),
      ms(s.p50),
      ms(s.p95),
      ms(s.p99),
      ms(s.max),
      goal === null ? '-' : `${goal}`,
      met === null ? '' : met ? 'ok' : 'MISSED',
    ];
  });
  return table(['step', 'count', 'per s', 'errors', 'refused', 'retries', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'goal p99', ''], rows);
}

export function processTable(usage: readonly ProcessUsage[]): string {
  const rows = usage.map((u) => [u.name, String(u.pid), u.cpuAvg.toFixed(1), u.cpuMax.toFixed(1), u.rssAvgMb.toFixed(0), u.rssMaxMb.toFixed(0)]);
  return table(['process', 'pid', 'cpu avg %', 'cpu max %', 'rss avg MB', 'rss max MB'], rows);
}

/** `reason` lines with their counts, most frequent first, at most `limit`. */
export function reasonList(reasons: ReadonlyMap<string, number>, limit = 15): string {
  const sorted = [...reasons].sort((a, b) => b[1] - a[1]);
  const lines = sorted.slice(0, limit).map(([reason, n]) => `  ${String(n).padStart(5)}  ${reason}`);
  if (sorted.length > limit) lines.push(`  … and ${sorted.length - limit} more`);
  return lines.join('\n');
}
