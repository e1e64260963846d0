// 'Blokkeer' on the public profile, the offer screen and the chat (issue 22): one button for the three.
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { blockApi } from '@ruilplein/contracts/browser';
import { buttonClass } from './button.ts';
import { request } from './client.ts';
import { useConfirm } from './confirm.tsx';
import { failureMessage, useApi } from './query.ts';
import * as styles from './block.module.css';

interface BlockButtonProps {
  /** The member to block (never the viewer). */
  member: { id: string; firstName: string };
  /** After blocking: a screen that no longer makes sense (an offer, its chat) can go elsewhere. */
  onBlocked?: () => void;
}

/** What blocking does, said before it is done (issue 22: both ways; the other is not told). */
const blockQuestion = (firstName: string) =>
  `${firstName} blokkeren? Jullie zien elkaars listings niet meer en kunnen niet meer met elkaar ruilen of chatten; jullie openstaande en geaccepteerde ruilaanbiedingen worden geannuleerd. ${firstName} krijgt hier geen bericht over. Deblokkeren kan later in je profiel.`;

/**
 * 'Blokkeer' with its confirmation, or 'Deblokkeer' for a member the viewer blocked already (from
 * GET /api/user/blocks, shared in the cache). Afterwards every query is read again: blocking hides
 * listings, cancels offers and closes chats everywhere.
 */
export function BlockButton({ member, onBlocked }: BlockButtonProps) {
  const queries = useQueryClient();
  const blocks = useApi(blockApi.list);
  const [dialog, confirm] = useConfirm();
  const [notice, setNotice] = useState<{ ok: boolean; text: string } | null>(null);
  const blocked = blocks.data?.some((entry) => entry.userId === member.id) ?? false;
  const change = useMutation({
    mutationFn: (block: boolean) => request(block ? blockApi.add : blockApi.remove, { params: { userId: member.id } }),
    onSuccess: (_answer, block) => {
      setNotice({ ok: true, text: block ? `Je hebt ${member.firstName} geblokkeerd.` : `${member.firstName} is niet meer geblokkeerd.` });
      void queries.invalidateQueries();
      if (block) onBlocked?.();
    },
    onError: (err) => setNotice({ ok: false, text: failureMessage(err, 'Dat is niet gelukt. Probeer het later opnieuw.') }),
  });

  const act = async () => {
    setNotice(null);
    if (blocked) return change.mutate(false);
    if (await confirm(blockQuestion(member.firstName), { confirmLabel: 'Blokkeer', danger: true })) change.mutate(true);
  };

  return (
    <span className={styles.block}>
      <button type="button" className={`${buttonClass('link')} ${styles.button}`} onClick={() => void act()} disabled={change.isPending || blocks.isPending} data-testid="block-member">
        {blocked ? 'Deblokkeer' : 'Blokkeer'}
      </button>
      <span role="status" className={styles.done}>
        {notice?.ok && notice.text}
      </span>
      {notice && !notice.ok && (
        <span role="alert" className={styles.problem}>
          {notice.text}
        </span>
      )}
      {dialog}
    </span>
  );
}
