// Rules, limits, Dutch messages and the real-time hub's protocol of the chat per trade offer (spec 2
// §3, §4, §5, §7 and §9) that the browser and the chat service both apply. Zod-free: exported by
// `@ruilplein/contracts/browser`.

/** Characters in one chat message, after trimming. */
export const CHAT_MESSAGE_MAX_LENGTH = 2000;
/** The latest messages GET /api/chat/{offerId} answers (older ones are kept, not listed). */
export const CHAT_HISTORY_MAX = 500;

export const CHAT_MESSAGES = {
  empty: 'Een bericht mag niet leeg zijn.',
  tooLong: 'Een bericht mag hoogstens 2000 tekens lang zijn.',
  invalidOffer: 'Ongeldig nummer van een ruilaanbod.',
  invalidAfter: 'Ongeldig berichtnummer.',
  notFound: 'Dit gesprek bestaat niet.',
  notParty: 'Alleen de twee partijen van dit ruilaanbod kunnen deze chat gebruiken.',
  closedCancelled: 'Aanbod is geannuleerd. Je kunt geen berichten meer sturen.',
  closedRejected: 'Aanbod is afgewezen. Je kunt geen berichten meer sturen.',
  /** The hub, to a browser on another site. */
  wrongOrigin: 'Deze chat kan alleen vanaf Ruilplein zelf worden geopend.',
  /** The hub, when the URL names no offer. */
  offerRequired: 'Geef het nummer van het ruilaanbod mee (offerId).',
  /** The hub answers only websockets (several replicas share no long-polling sessions). */
  websocketOnly: 'De chat werkt alleen via een websocket.',
} as const;

/** Characters of a message an event (and a notification) carries at most: chatPreview. */
export const CHAT_PREVIEW_MAX_LENGTH = 80;

/**
 * The start of a message for a notification: on one line (runs of white space, line breaks
 * included, become one space), at most CHAT_PREVIEW_MAX_LENGTH characters with '…' when cut, cut
 * between whole characters (never half an emoji's surrogate pair).
 */
export function chatPreview(content: string): string {
  const line = content.replace(/\s+/g, ' ').trim();
  // Counted in UTF-16 units, as the event's schema counts.
  if (line.length <= CHAT_PREVIEW_MAX_LENGTH) return line;
  let cut = '';
  for (const char of line) {
    if (cut.length + char.length > CHAT_PREVIEW_MAX_LENGTH - 1) break;
    cut += char;
  }
  return `${cut.trimEnd()}…`;
}

/** Shown for a sender whose account is gone. */
export const CHAT_FORMER_MEMBER_NAME = 'Voormalig lid';

/**
 * The real-time hub (spec 2 §7): socket.io on `path`, the offer in the query (`offerId`), the
 * access token in the query as `access_token` (browsers cannot set headers on a websocket; the
 * gateway checks it there, as SignalR's client sends it) or in an Authorization header; websockets
 * only. Events the hub emits:
 * - `ReceiveMessage(senderFirstName, content, message)`: the seed's two arguments, then the stored
 *   `ChatMessage` (id, tradeOfferId, sender, content, sentAt), to order by id and keep one per id
 *   (a message can arrive live and in a catch-up). The sender's own sockets get it too.
 * - `OfferUpdated({ id, status, version })`: the offer changed; read it again (a Cancelled or
 *   Rejected offer closes the chat).
 * A client may pass `{ lastMessageId }` as socket.io `auth`: when its session is not recovered
 * (`socket.recovered` false), the hub first sends every stored message after that id. A session is
 * recovered (socket.io's connection-state recovery, two minutes) once the client has received at
 * least one broadcast; otherwise read GET /api/chat/{offerId}?after=<last id>.
 */
export const CHAT_HUB = {
  path: '/chathub',
  offerParam: 'offerId',
  tokenParam: 'access_token',
  receiveMessage: 'ReceiveMessage',
  offerUpdated: 'OfferUpdated',
  transports: ['websocket'],
} as const;

/** The seed's reconnect schedule (SignalR's default, spec 2 §9): tries after these waits, then stops. */
export const CHAT_RECONNECT_DELAYS_MS = [0, 2_000, 10_000, 30_000] as const;

/** The Dutch refusal of a message to a closed conversation, by the offer's status. */
export const chatClosedMessage = (status: string): string => (status === 'Rejected' ? CHAT_MESSAGES.closedRejected : CHAT_MESSAGES.closedCancelled);
