// The printed report of a chaos run: the kills, the invariants, the load under them.
import { formatResult } from '@ruilplein/load';
import { ANSWER_GOAL_MS, type KillResult } from './kills.ts';
import type { ChaosResult } from './result.ts';

const seconds = (ms: number | undefined) => (ms === undefined ? 'not back' : (ms / 1000).toFixed(1));

/** Right-aligns the number columns; a header row, a rule, the rows. */
function table(header: readonly string[], rows: readonly (readonly string[])[], left: ReadonlySet<number>): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const line = (cells: readonly string[]) => cells.map((cell, c) => (left.has(c) ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ').trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function killTable(kills: readonly KillResult[], goalMs: number): string {
  const rows = kills.map((k) => [
    k.what,
    seconds(k.downMs),
    seconds(k.answersMs),
    seconds(k.wholeMs),
    k.answersMs !== undefined && k.answersMs <= goalMs ? 'ok' : 'MISSED',
    String(k.errors),
    k.crashes.join(', ') || '-',
  ]);
  return table(
    ['killed', 'down s', 'answers after start s', 'platform whole s', `<= ${goalMs / 1000} s`, 'load errors until next kill', 'exited by itself after it (started again)'],
    rows,
    new Set([0, 6]),
  );
}

export function formatChaos(r: ChaosResult, goalMs = ANSWER_GOAL_MS): string {
  const held = r.invariants.filter((i) => i.held).length;
  const lines = [
    `Chaos: ${r.kills.length} kills (SIGKILL, down ${(r.options.downMs / 1000).toFixed(0)} s, started again by the runner) during a load of ${r.options.members} members for ${r.options.minutes} min${r.options.replicas > 1 ? `, ${r.options.replicas} instances of every service and a three-node NATS cluster` : ''}.`,
    '',
    killTable(r.kills, goalMs),
    '',
    ...(r.otherCrashes.length ? [`Exited by itself outside the kills (started again): ${r.otherCrashes.join(', ')}.`, ''] : []),
    `Invariants after the run: ${held} of ${r.invariants.length} held.`,
    '',
    table(
      ['invariant', 'held', 'detail'],
      r.invariants.map((i) => [i.name, i.held ? 'yes' : 'NO', i.detail]),
      new Set([0, 1, 2]),
    ),
    '',
    'The load during the kills (errors are expected while a part is down; no process table: the processes found at the start were killed and replaced):',
    '',
    formatResult({ ...r.load, processes: [] }),
    '',
    r.ok ? 'Every invariant held and every part answered again.' : 'FAILED: an invariant did not hold or a part did not answer again.',
    ...(r.kept ? [`The platform's data and logs: ${r.dataDir}`] : []),
  ];
  return lines.join('\n');
}
