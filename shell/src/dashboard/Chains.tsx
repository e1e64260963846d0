// 'Ruilketens voor jou' on /dashboard (issue 24): up to three of the member's swap chains, one line
// each, with what they give and receive and a link to the chain's page in the trades remote. The
// shell's own small tile, like 'Trending in je buurt': the trades remote exposes pages, not parts.
import { Link } from 'react-router-dom';
import { chainApi, ringLine, type ResponseOf } from '@ruilplein/contracts/browser';
import { EmptyState, Loaded, useApi } from '@ruilplein/ui';
import * as styles from './Chains.module.css';

type Chain = ResponseOf<typeof chainApi.suggestions>[number];

/** How many chains the dashboard shows (the answer comes best first). */
const SHOWN = 3;

function ChainLine({ chain, me }: { chain: Chain; me: string }) {
  const mine = chain.participants.find((p) => p.userId === me);
  const line = ringLine(chain, me);
  return (
    <li className={styles.chain} data-testid="dashboard-chain" data-chain-id={chain.id}>
      <div className={styles.text}>
        <p className={styles.line}>{line}</p>
        {mine && (
          <p className={styles.what}>
            Je geeft {mine.gives.title} en krijgt {mine.receives.title}
          </p>
        )}
      </div>
      <Link to={`/dashboard/ruilketen/${chain.id}`} className={styles.view} aria-label={`Bekijk ruilketen ${line}`}>
        Bekijk
      </Link>
    </li>
  );
}

export function Chains({ userId }: { userId: string }) {
  const chains = useApi(chainApi.suggestions);
  return (
    <section className={styles.chains} aria-labelledby="dashboard-chains">
      <h2 id="dashboard-chains">Ruilketens voor jou</h2>
      <Loaded query={chains} label="Ruilketens laden…" failure="Je ruilketens konden niet worden geladen.">
        {(list) =>
          list.length === 0 ? (
            <EmptyState>Nog geen ruilketens voor jou. Zet listings op je verlanglijst: zo vinden we ruilen met meer leden.</EmptyState>
          ) : (
            <ul className={styles.list}>
              {list.slice(0, SHOWN).map((chain) => (
                <ChainLine key={chain.id} chain={chain} me={userId} />
              ))}
            </ul>
          )
        }
      </Loaded>
    </section>
  );
}
