// The chat of an offer (spec 2 §2 and §4): the messages (sender's first name, text, time), a text
// field with a send button, live updates from the hub, and the connection's state. Closed once the
// offer is cancelled or rejected: the messages stay readable, the field says why it is disabled.
import { useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CHAT_MESSAGE_MAX_LENGTH, chatApi, type ChatMessage, type Offer, type OfferParty } from '@ruilplein/contracts/browser';
import { ApiError, apiQuery, BlockButton, buttonClass, ErrorMessage, failureMessage, request, Spinner, useSession, worthRetrying } from '@ruilplein/ui';
import { invalidateTradeData } from '../common/queries.ts';
import { chatPlaceholder, isClosed, type Side } from '../common/status.ts';
import { HUB_STATE_LABELS, type HubState } from './reconnect.ts';
import { useChatRead } from './read.ts';
import { useChatHub } from './useChatHub.ts';
import * as styles from './Chat.module.css';

const time = new Intl.DateTimeFormat('nl-NL', { hour: '2-digit', minute: '2-digit', timeZone: 'Europe/Amsterdam' });
const dayAndTime = new Intl.DateTimeFormat('nl-NL', { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', timeZone: 'Europe/Amsterdam' });
const dayOf = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Amsterdam' });

/** '14:05' today, '3 jun 14:05' another day. */
function when(sentAt: string): string {
  const date = new Date(sentAt);
  if (Number.isNaN(date.getTime())) return '';
  return dayOf.format(date) === dayOf.format(new Date()) ? time.format(date) : dayAndTime.format(date);
}

/** The list with `message` in its place by id (the hub may repeat what the list already has). */
function withMessage(list: ChatMessage[], message: ChatMessage): ChatMessage[] {
  if (list.some((m) => m.id === message.id)) return list;
  const at = list.findIndex((m) => m.id > message.id);
  return at === -1 ? [...list, message] : [...list.slice(0, at), message, ...list.slice(at)];
}

function ConnectionState({ state, onReconnect }: { state: HubState; onReconnect: () => void }) {
  return (
    <div className={styles.connection}>
      <span className={`${styles.dot} ${styles[state] ?? ''}`} aria-hidden="true" />
      <span role="status" data-testid="chat-state">
        {HUB_STATE_LABELS[state]}
      </span>
      {(state === 'disconnected' || state === 'reconnecting') && (
        <button type="button" className={buttonClass('link')} onClick={onReconnect}>
          Opnieuw verbinden
        </button>
      )}
    </div>
  );
}

/** `members`: a three-party offer's other members (issue 24): a group chat, titled with their names. */
export function Chat({ offer, side, members }: { offer: Offer; side: Exclude<Side, 'none'>; members?: OfferParty[] }) {
  const { user } = useSession();
  const queries = useQueryClient();
  const closed = isClosed(offer.status);
  const input = { params: { offerId: String(offer.id) } };
  const messagesQuery = apiQuery(chatApi.messages, input);
  const messages = useQuery({
    ...messagesQuery,
    // The conversation opens when the chat service hears of the new offer (an event): until then a
    // 404, asked again a few times before it counts as a failure.
    retry: (failures, err) => worthRetrying(failures, err) || (err instanceof ApiError && err.status === 404 && failures < 5),
    retryDelay: (failures) => Math.min(500 * 2 ** failures, 4_000),
  });
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const log = useRef<HTMLDivElement>(null);
  const field = useRef<HTMLInputElement>(null);
  const headingId = useId();
  const fieldId = useId();
  const other = side === 'sender' ? offer.receiver : offer.sender;
  const withWhom = members?.length ? members.map((m) => m.firstName).join(' en ') : other.firstName;

  useEffect(() => {
    if (messages.isError) console.warn('Kon berichten niet ophalen.', messages.error);
  }, [messages.isError, messages.error]);
  // Reading the chat reads its notification (the unread mark in the offers list and the bell).
  useChatRead(offer.id, messages.data !== undefined);

  // Joined once the messages are read, so the hub's catch-up starts after the last one the screen has.
  const hub = useChatHub(offer.id, !closed && messages.data !== undefined, {
    onMessage: (_senderFirstName, _content, stored) => {
      // The hub sends the stored message after the seed's two arguments: kept in its place by id.
      // Without it (an older hub) the list is read again.
      if (stored) queries.setQueryData<ChatMessage[]>(messagesQuery.queryKey, (list = []) => withMessage(list, stored));
      else void queries.invalidateQueries({ queryKey: messagesQuery.queryKey });
    },
    lastMessageId: () => {
      const list = queries.getQueryData<ChatMessage[]>(messagesQuery.queryKey);
      return list ? (list.at(-1)?.id ?? 0) : undefined;
    },
    onResync: () => void queries.invalidateQueries({ queryKey: messagesQuery.queryKey }),
    onOfferUpdated: () => void invalidateTradeData(queries),
  });

  const send = useMutation({
    mutationFn: (content: string) => request(chatApi.send, { body: { tradeOfferId: offer.id, content } }),
    onSuccess: (stored) => {
      setText('');
      // The stored message at once; the hub's copy of it changes nothing.
      queries.setQueryData<ChatMessage[]>(messagesQuery.queryKey, (list = []) => withMessage(list, stored));
      field.current?.focus();
    },
    onError: (err) => {
      console.warn('Bericht versturen mislukt', err);
      setProblem(`Je bericht is niet verstuurd. ${err instanceof ApiError && err.status !== 0 ? err.message : 'Controleer je verbinding en probeer het opnieuw.'}`);
    },
  });

  // New messages scroll into view.
  const count = messages.data?.length ?? 0;
  useLayoutEffect(() => {
    const element = log.current;
    if (element) element.scrollTop = element.scrollHeight;
  }, [count]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const content = text.trim();
    // Whitespace alone is not sent (spec 2 §5).
    if (!content || closed) return;
    setProblem(null);
    send.mutate(content);
  };

  const isMine = (message: ChatMessage) => message.sender.id === user?.id;

  return (
    <section className={styles.chat} aria-labelledby={headingId} data-testid="chat">
      <div className={styles.header}>
        <h2 id={headingId} className={styles.title}>
          {members?.length ? 'Groepschat' : 'Chat'} met {withWhom}
        </h2>
        {!closed && <ConnectionState state={hub.state} onReconnect={hub.reconnect} />}
        {!members?.length && <BlockButton member={other} />}
      </div>
      {messages.isPending ? (
        <Spinner label="Berichten worden geladen…" />
      ) : messages.isError ? (
        <ErrorMessage message={`Kon berichten niet ophalen. ${failureMessage(messages.error)}`} onRetry={() => void messages.refetch()} />
      ) : (
        // Focusable, so it can be scrolled with the keyboard; polite, so new messages are read out.
        <div ref={log} className={styles.messages} role="log" aria-label={`Berichten met ${withWhom}`} tabIndex={0}>
          <ol className={styles.list}>
          {messages.data.length === 0 && <li className={styles.none}>Nog geen berichten. Stuur het eerste bericht!</li>}
          {messages.data.map((message) => (
            <li key={message.id} className={isMine(message) ? styles.mine : styles.theirs} data-testid="chat-message">
              <p className={styles.meta}>
                <span className={styles.sender}>{message.sender.firstName}</span>
                <time dateTime={message.sentAt} className={styles.time}>
                  {when(message.sentAt)}
                </time>
              </p>
              <p className={styles.content}>{message.content}</p>
            </li>
          ))}
          </ol>
        </div>
      )}
      <form className={styles.form} onSubmit={submit}>
        <label htmlFor={fieldId} className={styles.hidden}>
          Bericht
        </label>
        <input
          ref={field}
          id={fieldId}
          className={styles.field}
          value={closed ? '' : text}
          onChange={(event) => setText(event.target.value)}
          placeholder={chatPlaceholder(offer.status)}
          disabled={closed}
          maxLength={CHAT_MESSAGE_MAX_LENGTH}
          autoComplete="off"
          aria-describedby={problem ? `${fieldId}-problem` : undefined}
        />
        <button type="submit" className={buttonClass()} disabled={closed || send.isPending || !text.trim()}>
          {send.isPending ? 'Bezig...' : 'Verstuur'}
        </button>
      </form>
      <div role="alert" className={styles.problemRegion}>
        {problem && (
          <p id={`${fieldId}-problem`} className={styles.problem}>
            {problem}
          </p>
        )}
      </div>
    </section>
  );
}
