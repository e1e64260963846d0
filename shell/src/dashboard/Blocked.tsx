// The members the member blocked, each with 'Deblokkeer' (issue 22), on the own profile.
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { blockApi, type BlockedMember } from '@ruilplein/contracts/browser';
import { buttonClass, EmptyState, failureMessage, formatDate, Loaded, request, useApi } from '@ruilplein/ui';
import * as styles from './Blocked.module.css';

export function BlockedMembers() {
  const blocks = useApi(blockApi.list);
  const queries = useQueryClient();
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const unblock = useMutation({
    mutationFn: (member: BlockedMember) => request(blockApi.remove, { params: { userId: member.userId } }),
    onSuccess: (_answer, member) => {
      setNotice({ ok: true, text: `${member.firstName} is niet meer geblokkeerd.` });
      // Their listings, offers and chat come back everywhere.
      void queries.invalidateQueries();
    },
    onError: (err, member) => setNotice({ ok: false, text: `${member.firstName} deblokkeren is niet gelukt. ${failureMessage(err)}` }),
  });
  return (
    <>
      <Loaded query={blocks} label="Geblokkeerde leden worden geladen…" failure="Kan je geblokkeerde leden niet ophalen.">
        {(list) =>
          list.length === 0 ? (
            <EmptyState>Je hebt niemand geblokkeerd.</EmptyState>
          ) : (
            <ul className={styles.list} aria-label="Geblokkeerde leden">
              {list.map((member) => (
                <li key={member.userId} className={styles.member} data-testid="blocked-member">
                  <span>
                    <Link to={`/dashboard/user/${encodeURIComponent(member.userId)}`}>
                      {member.firstName} {member.lastName}
                    </Link>
                    <span className={styles.since}> sinds {formatDate(member.since)}</span>
                  </span>
                  <button
                    type="button"
                    className={buttonClass('secondary')}
                    onClick={() => {
                      setNotice(null);
                      unblock.mutate(member);
                    }}
                    disabled={unblock.isPending}
                    aria-label={`Deblokkeer ${member.firstName} ${member.lastName}`}
                  >
                    Deblokkeer
                  </button>
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
      <p role="status" className={styles.done}>
        {notice?.ok && notice.text}
      </p>
      {notice && !notice.ok && (
        <p role="alert" className={styles.problem}>
          {notice.text}
        </p>
      )}
    </>
  );
}
