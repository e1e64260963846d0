// The live part of an offer's chat: a socket.io connection to the chat hub (CHAT_HUB: /chathub with
// the offer and the access token in the query, which the gateway checks), reconnecting on the seed's
// schedule (reconnect.ts).
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { io } from 'socket.io-client';
import { CHAT_HUB, type ChatMessage } from '@ruilplein/contracts/browser';
import { renewSession, useSession } from '@ruilplein/ui';
import { Reconnector, type HubState } from './reconnect.ts';
import { expiresWithin } from './token.ts';

export interface HubHandlers {
  /** `ReceiveMessage(senderFirstName, content, message)`: the stored message, when the hub sends it. */
  onMessage: (senderFirstName: string, content: string, message: ChatMessage | undefined) => void;
  /** The id of the newest message the screen has; undefined while it has not read them. */
  lastMessageId: () => number | undefined;
  /**
   * Connected without the hub catching up (neither recovered nor told the last id): the messages
   * are read again from the API, as some may have come between reading them and joining the room.
   */
  onResync: () => void;
  /** The offer's status changed (the hub's `OfferUpdated`): the screen reads the offer again. */
  onOfferUpdated: () => void;
}

const isMessage = (value: unknown): value is ChatMessage =>
  typeof value === 'object' && value !== null && typeof (value as ChatMessage).id === 'number' && typeof (value as ChatMessage).content === 'string';

/**
 * Connects while `enabled` and the screen is shown; `reconnect()` starts over by hand (after
 * 'Verbroken'). Only websockets, as the hub answers no long-polling (several replicas share no
 * polling sessions). One socket for the screen's lifetime, connected again rather than replaced, so
 * the hub can recover its session on a reconnect; otherwise it sends what came after the last
 * message the screen has (`lastMessageId` in the handshake's auth).
 */
export function useChatHub(offerId: number, enabled: boolean, handlers: HubHandlers) {
  const { token } = useSession();
  const [state, setState] = useState<HubState>('connecting');
  const latest = useRef({ handlers, token });
  useLayoutEffect(() => {
    latest.current = { handlers, token };
  });
  const schedule = useRef<Reconnector | null>(null);

  useEffect(() => {
    if (!enabled) return;
    let stopped = false;
    let caughtUp = false;
    const socket = io({
      path: CHAT_HUB.path,
      transports: [...CHAT_HUB.transports],
      autoConnect: false,
      // Our own schedule, not the library's growing random back-off.
      reconnection: false,
      // A handshake that does not complete counts as failed after this (the library waits 20 s).
      timeout: 10_000,
    });

    const open = async () => {
      if (stopped || socket.connected) return;
      // An access token lives minutes: one about to end is renewed first (the gateway checks it on the handshake).
      let current = latest.current.token;
      if (!current || expiresWithin(current, 15_000)) current = (await renewSession()) ?? latest.current.token;
      if (stopped) return;
      const lastMessageId = latest.current.handlers.lastMessageId();
      caughtUp = lastMessageId !== undefined;
      socket.io.opts.query = { [CHAT_HUB.offerParam]: String(offerId), [CHAT_HUB.tokenParam]: current ?? '' };
      socket.auth = lastMessageId === undefined ? {} : { lastMessageId };
      // An attempt still hanging (a retry by hand while the last one waits) is given up first; not
      // being connected, this sends nothing and keeps the session the hub may recover.
      socket.disconnect();
      socket.connect();
    };
    const reconnector = new Reconnector({ open: () => void open(), onState: setState });
    schedule.current = reconnector;

    socket.on('connect', () => {
      reconnector.connected();
      if (!socket.recovered && !caughtUp) latest.current.handlers.onResync();
    });
    socket.on('connect_error', (err) => {
      if (stopped) return;
      console.warn('Chatverbinding mislukt', err.message);
      reconnector.lost();
    });
    socket.on('disconnect', (reason) => {
      if (stopped || reason === 'io client disconnect') return;
      reconnector.lost();
    });
    socket.on(CHAT_HUB.receiveMessage, (senderFirstName: unknown, content: unknown, message: unknown) =>
      latest.current.handlers.onMessage(String(senderFirstName), String(content), isMessage(message) ? message : undefined),
    );

    socket.on(CHAT_HUB.offerUpdated, () => latest.current.handlers.onOfferUpdated());

    reconnector.start();
    return () => {
      stopped = true;
      reconnector.stop();
      schedule.current = null;
      socket.off();
      socket.disconnect();
    };
  }, [offerId, enabled]);

  const reconnect = useCallback(() => schedule.current?.retryNow(), []);
  return { state, reconnect };
}
