// The ring of a swap chain drawn: each member a circle, an arrow to the member they give to with
// what they give. A picture only (aria-hidden): the ordered list beside it says the same in words.
import type { ChainSuggestion } from './ring.ts';
import * as styles from './ChainPage.module.css';

// Wider than high: the titles beside the arrows on the left and right need the room.
const WIDTH = 440;
const HEIGHT = 320;
const CENTER = { x: WIDTH / 2, y: HEIGHT / 2 };
const RADIUS = 105;
const NODE = 34;

/** Where member `i` of `n` sits: the first at the top, then clockwise. */
function spot(i: number, n: number) {
  const angle = -Math.PI / 2 + (2 * Math.PI * i) / n;
  return { x: CENTER.x + RADIUS * Math.cos(angle), y: CENTER.y + RADIUS * Math.sin(angle) };
}

/** A title cut to fit beside an arrow. */
const short = (title: string) => (title.length > 18 ? `${title.slice(0, 17)}…` : title);

export function RingDrawing({ chain, me }: { chain: ChainSuggestion; me: string | undefined }) {
  const n = chain.participants.length;
  return (
    <svg className={styles.ring} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} aria-hidden="true" focusable="false" data-testid="chain-ring-drawing">
      <defs>
        <marker id="chain-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse">
          <path d="M0,0 L10,5 L0,10 z" className={styles.arrowHead} />
        </marker>
      </defs>
      {chain.participants.map((p, i) => {
        const from = spot(i, n);
        const to = spot((i + 1) % n, n);
        // A curve bending outwards (two members: one arrow on each side), ending at the circles' edges.
        const mid = { x: (from.x + to.x) / 2, y: (from.y + to.y) / 2 };
        const out = { x: mid.x - CENTER.x, y: mid.y - CENTER.y };
        const len = Math.hypot(out.x, out.y) || 1;
        const normal = n === 2 ? { x: i === 0 ? 1 : -1, y: 0 } : { x: out.x / len, y: out.y / len };
        const bend = n === 2 ? 70 : 45;
        const control = { x: mid.x + normal.x * bend, y: mid.y + normal.y * bend };
        const edge = (a: { x: number; y: number }) => {
          const dx = control.x - a.x;
          const dy = control.y - a.y;
          const d = Math.hypot(dx, dy) || 1;
          return { x: a.x + (dx / d) * (NODE + 2), y: a.y + (dy / d) * (NODE + 2) };
        };
        const start = edge(from);
        const end = edge(to);
        // The title just outside the curve's top, leaning away from it.
        const label = { x: mid.x + normal.x * (bend / 2 + 8), y: mid.y + normal.y * (bend / 2 + 8) };
        const anchor = normal.x > 0.3 ? 'start' : normal.x < -0.3 ? 'end' : 'middle';
        const baseline = normal.y > 0.3 ? 'hanging' : normal.y < -0.3 ? 'auto' : 'central';
        return (
          <g key={`edge-${p.userId}`}>
            <path d={`M${start.x},${start.y} Q${control.x},${control.y} ${end.x},${end.y}`} className={styles.arrow} markerEnd="url(#chain-arrow)" />
            <text x={label.x} y={label.y} className={styles.arrowLabel} textAnchor={anchor} dominantBaseline={baseline}>
              {short(p.gives.title)}
            </text>
          </g>
        );
      })}
      {chain.participants.map((p, i) => {
        const at = spot(i, n);
        return (
          <g key={`node-${p.userId}`}>
            <circle cx={at.x} cy={at.y} r={NODE} className={p.userId === me ? styles.nodeMe : styles.node} />
            <text x={at.x} y={at.y} className={styles.nodeLabel} textAnchor="middle" dominantBaseline="central">
              {p.userId === me ? 'Jij' : short(p.firstName)}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
