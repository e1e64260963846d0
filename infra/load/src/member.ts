// One simulated member: signs up and in as a person does (register, the activation mail from the
// local outbox, its link, login), a share of them takes Premium through the local checkout, then
// visits the platform until the run ends, one action after another with a think time between:
// search with and without keywords, look at listings, wishlist, list items with photos, make
// offers, answer them in the inbox (accept or reject, confirm, review) and chat over the hub.
//
// Why Premium: a listing is for Premium members only in its first six hours
// (PREMIUM_HEAD_START_HOURS), and every listing a run places is younger than that, so only Premium
// members can find and make offers on the members' listings (standard members browse, wishlist and
// list, and answer the offers they get). Offers go to simulated members only (never the demo
// accounts, whom nobody plays). What a notification does (the other party opens the offers
// page) is played by World.nudge rather than by the notification hub.
import { setTimeout as sleep } from 'node:timers/promises';
import {
  CHAT_HUB,
  CHAT_MESSAGES,
  FREE_ACTIVE_LISTINGS_MAX,
  LISTING_MESSAGES,
  OFFER_DAILY_LIMIT,
  OFFER_MESSAGES,
  REVIEW_MESSAGES,
  type Category,
  type ChatMessage,
  type InventoryItem,
  type Listing,
  type ListingCard,
  type Offer,
} from '@ruilplein/contracts/browser';
import { io, type Socket } from 'socket.io-client';
import type { CallInit, Client } from './client.ts';
import { ACTION_WEIGHTS, pickOne, pickWeighted, thinkTime, type Action, type Rng } from './mix.ts';
import type { Photo } from './photos.ts';
import { Recorder } from './stats.ts';
import type { Step } from './steps.ts';

const PASSWORD = 'Ruilen2025!';
/** Every simulated member's password: to sign in as one after the run. */
export const MEMBER_PASSWORD = PASSWORD;
const FIRST_NAMES = ['Anna', 'Bram', 'Cor', 'Daan', 'Emma', 'Fleur', 'Gijs', 'Hanna', 'Ilse', 'Joost', 'Kim', 'Lotte', 'Milan', 'Noor', 'Otto', 'Pien', 'Ruben', 'Sanne', 'Tess', 'Vera'];
const PLACES = [
  { city: 'Utrecht', latitude: 52.0907, longitude: 5.1214 },
  { city: 'Utrecht', latitude: 52.0907, longitude: 5.1214 },
  { city: 'Amsterdam', latitude: 52.3676, longitude: 4.9041 },
  { city: 'Rotterdam', latitude: 51.9244, longitude: 4.4777 },
];
/** What members list; the words are what others search for. */
const THINGS = [
  { title: 'Stadsfiets met drie versnellingen', word: 'fiets' },
  { title: 'Kinderfiets 20 inch', word: 'fiets' },
  { title: 'Stapel kinderboeken', word: 'boeken' },
  { title: 'Kookboeken uit de Italiaanse keuken', word: 'boeken' },
  { title: 'Boormachine met klopfunctie', word: 'boormachine' },
  { title: 'Decoupeerzaag en zaagbladen', word: 'zaag' },
  { title: 'Eikenhouten eettafel', word: 'tafel' },
  { title: 'Bijzettafel van teak', word: 'tafel' },
  { title: 'Vier houten stoelen', word: 'stoelen' },
  { title: 'Winterjas maat M', word: 'jas' },
  { title: 'Regenjas voor kinderen', word: 'jas' },
  { title: 'Bordspel Catan compleet', word: 'bordspel' },
  { title: 'Gitaar met hoes', word: 'gitaar' },
  { title: 'Stekjes van kamerplanten', word: 'planten' },
  { title: 'Tent voor vier personen', word: 'tent' },
  { title: 'Naaimachine met voetpedaal', word: 'naaimachine' },
  { title: 'Staande lamp met linnen kap', word: 'lamp' },
  { title: 'Set pannen met deksels', word: 'pannen' },
];
const KEYWORDS = [...new Set(THINGS.map((t) => t.word)), 'boek', 'krabpaal', 'koffie', 'fietsen'];
const CHAT_LINES = ['Hoi! Is het nog beschikbaar?', 'Wanneer kan ik het ophalen?', 'Prima, zaterdagochtend past mij goed.', 'Top, tot dan!', 'Kan ik morgen na vijven langskomen?', 'Dank je, het ziet er netjes uit.'];
const REVIEW_LINES = ['Fijne ruil, netjes afgesproken.', 'Alles zoals beschreven. Aanrader!', 'Vriendelijk en op tijd.', ''];

/** Answers of a race between members: what a browser shows and a person accepts (the table counts them apart). */
const REFUSALS = {
  view: [LISTING_MESSAGES.notFound],
  wishlist: [LISTING_MESSAGES.notFound],
  create: [LISTING_MESSAGES.activeLimit],
  offer: [OFFER_MESSAGES.receiverNotOwner, OFFER_MESSAGES.itemUnavailable, OFFER_MESSAGES.dailyLimit, OFFER_MESSAGES.busy],
  respond: [OFFER_MESSAGES.notPending, OFFER_MESSAGES.itemsGone, OFFER_MESSAGES.busy],
  confirm: [OFFER_MESSAGES.notAccepted, OFFER_MESSAGES.itemsGone, OFFER_MESSAGES.busy],
  review: [REVIEW_MESSAGES.alreadyReviewed],
  chat: [CHAT_MESSAGES.closedCancelled, CHAT_MESSAGES.closedRejected],
} as const;

/** The run's shared knowledge: which ids are simulated members, and their "notifications". */
export class World {
  readonly members = new Map<string, Member>();
  /** Chat messages in flight by their text (unique per run), when they were sent. */
  readonly sentChats = new Map<string, number>();
  /** Every chat message the platform accepted (201): none may be lost (chaos checks the history). */
  readonly acceptedChats: AcceptedChat[] = [];
  /** The run's mark in every address and text, so runs on one platform do not meet. */
  readonly tag: string;

  constructor(tag: string) {
    this.tag = tag;
  }

  /** What a notification does to a person: the next visit goes to the offers. */
  nudge(memberId: string): void {
    const m = this.members.get(memberId);
    if (m) m.nudged = true;
  }
}

/** A chat message its sender saw accepted. */
export interface AcceptedChat {
  offerId: number;
  senderId: string;
  content: string;
}

export interface MemberOptions {
  n: number;
  client: Client;
  rng: Rng;
  world: World;
  photos: readonly Photo[];
  thinkMs: number;
  /** Photos a listing gets: 1 to this many. */
  photosMax: number;
  premium: boolean;
}

const messageOf = (body: unknown): string =>
  body && typeof body === 'object' && 'message' in body && typeof body.message === 'string' ? body.message : typeof body === 'string' ? body.slice(0, 120) : '';

const OPEN = ['Pending', 'Accepted'];

export class Member {
  readonly n: number;
  readonly premium: boolean;
  readonly firstName: string;
  readonly email: string;
  id = '';
  token = '';
  signedIn = false;
  nudged = false;
  readonly #o: MemberOptions;
  /** Where timings go: the sign-up's recorder, then the run's. */
  #recorder: Recorder;
  /** performance.now() after which no new action starts. */
  #deadline = Infinity;
  #results: ListingCard[] = [];
  #offers: Offer[] = [];
  #categories: Category[] | undefined;
  readonly #mine = new Set<string>();
  readonly #wishlisted = new Set<string>();
  readonly #offeredOn = new Set<string>();
  readonly #reviewed = new Set<number>();
  #offersSent = 0;
  #triedListing = false;
  #chatSeq = 0;

  constructor(o: MemberOptions) {
    this.#o = o;
    this.#recorder = new Recorder();
    this.n = o.n;
    this.premium = o.premium;
    this.firstName = FIRST_NAMES[o.n % FIRST_NAMES.length]!;
    this.email = `${this.firstName.toLowerCase()}.${o.world.tag}-${o.n}@example.nl`;
  }

  /** Its connections closed (the run is over). */
  close(): void {
    this.#o.client.close();
  }

  get #stopped() {
    return performance.now() >= this.#deadline;
  }

  /**
   * Before the run: an account as a person makes one (register, the activation mail, its link)
   * and, for a Premium member, the upgrade (signed in for it). False when any of it failed.
   */
  async signUp(recorder: Recorder): Promise<boolean> {
    this.#recorder = recorder;
    if (!(await this.#register())) return false;
    if (!this.premium) return true;
    return (await this.#logIn()) && (await this.#upgrade());
  }

  /** The run: sign in, then visit until `deadline` (performance.now()). */
  async run(recorder: Recorder, deadline: number): Promise<void> {
    this.#recorder = recorder;
    this.#deadline = deadline;
    if (!(await this.#logIn())) return;
    this.signedIn = true;
    // The dashboard first: a look before the first click.
    await this.#think();
    while (!this.#stopped) {
      const action: Action | undefined = this.nudged && this.#o.rng() < 0.9 ? 'inbox' : pickWeighted(this.#weights(), (a) => this.#can(a), this.#o.rng);
      if (action) await this.#act(action);
      await this.#think();
    }
  }

  async #think(scale = 1) {
    const wait = Math.min(thinkTime(this.#o.thinkMs * scale, this.#o.rng), this.#deadline - performance.now());
    if (wait > 0) await sleep(wait);
  }

  /** One call, timed under `step`; the body when the status is one of `ok`, undefined otherwise (counted as refused or error). */
  async #api<T>(step: Step, method: string, path: string, init: CallInit = {}, ok: readonly number[] = [200], refusals: readonly string[] = []): Promise<T | undefined> {
    let answer;
    try {
      answer = await this.#o.client.call<T>(method, path, { token: this.token || undefined, ...init });
    } catch (err) {
      this.#recorder.error(step, `no answer: ${(err as Error).message}`);
      return undefined;
    }
    this.#recorder.time(step, answer.ms);
    if (ok.includes(answer.status)) return answer.body;
    const message = messageOf(answer.body);
    if (refusals.includes(message)) this.#recorder.refused(step, `${answer.status} ${message}`);
    else this.#recorder.error(step, `${answer.status} ${message}`);
    return undefined;
  }

  // ─── Signing in.

  async #register(): Promise<boolean> {
    const place = pickOne(PLACES, this.#o.rng)!;
    // Neighbours: within a kilometre or so of the town centre.
    const jitter = () => (this.#o.rng() - 0.5) * 0.02;
    const registered = await this.#api('signin.register', 'POST', '/api/auth/register', {
      json: { firstName: this.firstName, lastName: 'Testlid', email: this.email, password: PASSWORD, city: place.city, latitude: place.latitude + jitter(), longitude: place.longitude + jitter() },
    }, [201]);
    if (registered === undefined) return false;
    const token = await this.#activationToken();
    if (!token) return false;
    return (await this.#api('signin.activate', 'GET', `/api/auth/activate?${new URLSearchParams({ token })}`)) !== undefined;
  }

  async #logIn(): Promise<boolean> {
    const login = await this.#api<{ token: string; user: { id: string } }>('signin.login', 'POST', '/api/auth/login', { json: { email: this.email, password: PASSWORD } });
    if (!login) return false;
    this.token = login.token;
    this.id = login.user.id;
    this.#o.world.members.set(this.id, this);
    return true;
  }

  /**
   * The activation link's token from the local outbox (mails are sent after the answer: polled, as
   * e2e/members.ts does), looked at as a person looks at their mail: after a second, then less often.
   */
  async #activationToken(): Promise<string | undefined> {
    const until = performance.now() + 30_000;
    for (let look = 1; performance.now() < until; look++) {
      await sleep(Math.min(look, 5) * 1000);
      const mails = await this.#api<Array<{ to: string; text: string }>>('signin.mail', 'GET', `/dev/mail/messages.json?to=${encodeURIComponent(this.email)}`);
      if (!mails) return undefined;
      for (const mail of mails.filter((m) => m.to === this.email)) {
        const link = mail.text.match(/https?:\/\/[^\s"<>]+/g)?.map((u) => new URL(u)).find((u) => u.pathname.toLowerCase() === '/verify-email');
        const token = link?.searchParams.get('token');
        if (token) return token;
      }
    }
    this.#recorder.error('signin.mail', 'no activation mail within 30 s');
    return undefined;
  }

  /** Premium through the local checkout (spec 1 §7): start, pay, back on the return screen, subscribe; then wait for the role. */
  async #upgrade(): Promise<boolean> {
    const started = await this.#api<{ paymentId: string; checkoutUrl: string }>('premium.start', 'POST', '/api/payment/start-upgrade-first', {}, [201]);
    if (!started) return false;
    const checkout = new URL(started.checkoutUrl, this.#o.client.base);
    if ((await this.#api('premium.checkout', 'POST', checkout.pathname, { fields: { outcome: 'paid' }, headers: { accept: 'text/html' } }, [303])) === undefined) return false;
    await this.#think(0.3);
    if ((await this.#api('premium.status', 'GET', `/api/payment/status?${new URLSearchParams({ id: started.paymentId })}`)) === undefined) return false;
    if ((await this.#api('premium.subscribe', 'POST', '/api/payment/create-subscription', { json: '1 month' })) === undefined) return false;
    // Auth learns of the payment from its event: moments later.
    const until = performance.now() + 20_000;
    while (performance.now() < until) {
      const me = await this.#api<{ role: string[] }>('profile.my', 'GET', '/api/user/my');
      if (!me) return false;
      if (me.role.includes('Premium')) return true;
      await sleep(300);
    }
    this.#recorder.error('profile.my', 'no Premium role within 20 s of paying');
    return false;
  }

  // ─── Choosing.

  #weights(): Record<Action, number> {
    // A new member is likelier to list something early (once: a refused try is not repeated at
    // that rate); one with an offer under way opens the offers more often.
    return {
      ...ACTION_WEIGHTS,
      list: this.#triedListing ? ACTION_WEIGHTS.list : 5 * ACTION_WEIGHTS.list,
      inbox: this.#offers.some((o) => OPEN.includes(o.status)) ? ACTION_WEIGHTS.inbox * 2 : ACTION_WEIGHTS.inbox,
    };
  }

  #can(action: Action): boolean {
    switch (action) {
      case 'view':
        return this.#results.length > 0;
      case 'wishlistAdd':
        return this.#wishCandidates().length > 0;
      case 'list':
        return this.premium || this.#mine.size < FREE_ACTIVE_LISTINGS_MAX;
      case 'offer':
        return (this.premium || this.#offersSent < OFFER_DAILY_LIMIT) && this.#offerCandidates().length > 0;
      case 'chat':
        return this.#offers.some((o) => OPEN.includes(o.status));
      default:
        return true;
    }
  }

  #others = () => this.#results.filter((l) => l.user.id !== this.id);
  #wishCandidates = () => this.#others().filter((l) => !this.#wishlisted.has(l.id));
  /** Listings of other simulated members this member has not made an offer on yet. */
  #offerCandidates = () => this.#others().filter((l) => this.#o.world.members.has(l.user.id) && !this.#offeredOn.has(l.id));

  async #act(action: Action): Promise<void> {
    switch (action) {
      case 'browse':
        return this.#search('search.browse', { page: this.#o.rng() < 0.8 ? '1' : '2' });
      case 'keywords':
        return this.#search('search.keywords', { q: pickOne(KEYWORDS, this.#o.rng)! });
      case 'view':
        return this.#view(pickOne(this.#results, this.#o.rng)!);
      case 'wishlistAdd':
        return this.#wishlist(pickOne(this.#wishCandidates(), this.#o.rng)!);
      case 'wishlistList':
        return void (await this.#api('wishlist.list', 'GET', '/api/wishlist/my'));
      case 'list':
        return this.#list();
      case 'myListings':
        return this.#myListings();
      case 'offer':
        return this.#offer(pickOne(this.#offerCandidates(), this.#o.rng)!);
      case 'inbox':
        return this.#inbox();
      case 'chat':
        return this.#chat(pickOne(this.#offers.filter((o) => OPEN.includes(o.status)), this.#o.rng)!);
    }
  }

  // ─── Browsing.

  async #search(step: 'search.browse' | 'search.keywords', query: Record<string, string>) {
    const found = await this.#api<ListingCard[]>(step, 'GET', `/api/listing?${new URLSearchParams(query)}`);
    if (found) this.#results = found;
  }

  async #view(card: ListingCard) {
    const listing = await this.#api<Listing>('listing.view', 'GET', `/api/listing/${card.id}`, {}, [200], REFUSALS.view);
    if (!listing) return void (this.#results = this.#results.filter((l) => l.id !== card.id));
    if (listing.user.id !== this.id) await this.#api('wishlist.exists', 'GET', `/api/wishlist/exists/${card.id}`);
  }

  async #wishlist(card: ListingCard) {
    const added = await this.#api('wishlist.add', 'POST', `/api/wishlist/add/${card.id}`, {}, [200, 201], REFUSALS.wishlist);
    this.#wishlisted.add(card.id);
    if (added !== undefined && this.#o.rng() < 0.3) await this.#api('wishlist.list', 'GET', '/api/wishlist/my');
  }

  // ─── Listing.

  async #list() {
    this.#triedListing = true;
    // The add form loads the categories, then the member fills it in.
    this.#categories = (await this.#api<Category[]>('category.list', 'GET', '/api/category')) ?? this.#categories;
    const usable = (this.#categories ?? []).filter((c) => this.premium || !c.isPremium);
    const category = pickOne(usable, this.#o.rng);
    if (!category) return;
    await this.#think(0.5);
    const thing = pickOne(THINGS, this.#o.rng)!;
    const form = new FormData();
    form.set('title', thing.title);
    form.set('description', `${thing.title}: goed onderhouden, op te halen in de buurt. Ruil graag tegen iets leuks.`);
    form.set('initialValue', String(5 + Math.floor(this.#o.rng() * 120)));
    form.set('isPremium', 'false');
    form.set('listingType', 'item');
    form.set('acceptsItems', 'false');
    form.append('CategoryIDs', category.id);
    const count = 1 + Math.floor(this.#o.rng() * this.#o.photosMax);
    for (let i = 0; i < count; i++) {
      const photo = pickOne(this.#o.photos, this.#o.rng)!;
      form.append('images', new Blob([photo.data], { type: 'image/jpeg' }), photo.name);
    }
    const created = await this.#api<{ listing: Listing }>('listing.create', 'POST', '/api/listing/create', { form, timeoutMs: 60_000 }, [201], REFUSALS.create);
    if (created) this.#mine.add(created.listing.id);
  }

  async #myListings() {
    const mine = await this.#api<Listing[]>('listing.my', 'GET', '/api/listing/my');
    if (!mine) return;
    this.#mine.clear();
    for (const l of mine) if (l.isActive) this.#mine.add(l.id);
  }

  // ─── Offers.

  async #offer(card: ListingCard) {
    this.#offeredOn.add(card.id);
    const receiver = card.user.id;
    // The offer screen: both inventories (the other's as this member may see it).
    const [theirs, mine] = await Promise.all([
      this.#api<InventoryItem[]>('offer.inventory', 'GET', `/api/listing/inventory/${receiver}`),
      this.#api<InventoryItem[]>('offer.inventory', 'GET', `/api/listing/inventory/${this.id}`),
    ]);
    if (!theirs || !mine) return;
    if (!theirs.some((i) => i.listingID === card.id)) return;
    await this.#think(0.5);
    const items = [{ listingID: card.id, userID: receiver }];
    const roll = this.#o.rng();
    const own = mine.filter((i) => !i.isDefault);
    if (roll < 0.6 && own.length) items.push({ listingID: pickOne(own, this.#o.rng)!.listingID, userID: this.id });
    else if (roll < 0.9) {
      const crate = mine.find((i) => i.isDefault);
      if (crate) items.push({ listingID: crate.listingID, userID: this.id });
    }
    const offer = await this.#api<Offer>(
      'offer.send',
      'POST',
      '/api/tradeoffer/create',
      { json: { senderID: this.id, receiverID: receiver, listingOfferedOnID: card.id, message: this.#o.rng() < 0.5 ? '' : 'Zou je dit willen ruilen?', items } },
      [201],
      REFUSALS.offer,
    );
    if (!offer) return;
    this.#offersSent++;
    this.#offers.unshift(offer);
    this.#o.world.nudge(receiver);
    if (this.#o.rng() < 0.5) await this.#chat(offer);
  }

  /** The offers page, and what a person does there: answer new offers, confirm, review. */
  async #inbox() {
    this.nudged = false;
    const offers = await this.#api<Offer[]>('offer.list', 'GET', '/api/tradeoffer/my');
    if (!offers) return;
    this.#offers = offers;
    for (const offer of offers) {
      if (this.#stopped) return;
      const mine = offer.senderID === this.id ? 'sender' : 'receiver';
      const other = mine === 'sender' ? offer.receiverID : offer.senderID;
      if (offer.status === 'Pending' && mine === 'receiver') {
        await this.#think(0.4);
        const accept = this.#o.rng() < 0.75;
        const answered = await this.#api<Offer>(accept ? 'offer.accept' : 'offer.reject', 'PUT', `/api/tradeoffer/respond/${offer.id}?status=${accept ? 'Accepted' : 'Rejected'}`, {}, [200], REFUSALS.respond);
        if (!answered) continue;
        this.#o.world.nudge(other);
        if (accept && this.#o.rng() < 0.4) await this.#chat(answered);
      } else if (offer.status === 'Accepted' && !(mine === 'sender' ? offer.senderConfirmed : offer.receiverConfirmed)) {
        await this.#think(0.4);
        const confirmed = await this.#api<Offer>('offer.confirm', 'POST', `/api/tradeoffer/confirm/${offer.id}`, {}, [200], REFUSALS.confirm);
        if (confirmed) this.#o.world.nudge(other);
        if (confirmed?.status === 'Completed') await this.#review(confirmed, other);
      } else if (offer.status === 'Completed' && !this.#reviewed.has(offer.id)) {
        await this.#review(offer, other);
      }
    }
  }

  async #review(offer: Offer, other: string) {
    await this.#think(0.4);
    this.#reviewed.add(offer.id);
    const rating = 3 + Math.floor(this.#o.rng() * 5) / 2;
    await this.#api('review.add', 'POST', '/api/review/add', { json: { revieweeID: other, rating, comment: pickOne(REVIEW_LINES, this.#o.rng), tradeOfferId: offer.id } }, [201], REFUSALS.review);
    // The traded listing is gone from the inventory: the next add form counts again.
    await this.#myListings();
  }

  // ─── Chat.

  /** The chat of an offer: its history (asked again on a 404 while the chat service catches up, as the page does), the hub, a message or two. */
  async #chat(offer: Offer) {
    let history: ChatMessage[] | undefined;
    for (let attempt = 0; ; attempt++) {
      let answer;
      try {
        answer = await this.#o.client.call<ChatMessage[]>('GET', `/api/chat/${offer.id}`, { token: this.token });
      } catch (err) {
        return this.#recorder.error('chat.history', `no answer: ${(err as Error).message}`);
      }
      this.#recorder.time('chat.history', answer.ms);
      if (answer.status === 200) {
        history = answer.body;
        break;
      }
      if (answer.status === 404 && attempt < 5) {
        // mfe-trades' Chat.tsx: a 404 right after the offer is the chat service catching up.
        this.#recorder.retried('chat.history');
        await sleep(Math.min(500 * 2 ** (attempt + 1), 4000));
        continue;
      }
      return this.#recorder.error('chat.history', `${answer.status} ${messageOf(answer.body)}`);
    }
    void history;
    const socket = await this.#connect(offer.id);
    if (!socket) return;
    try {
      const lines = 1 + Math.floor(this.#o.rng() * 2);
      for (let i = 0; i < lines && !this.#stopped; i++) {
        await this.#think(0.5);
        const content = `${pickOne(CHAT_LINES, this.#o.rng)} (${this.#o.world.tag}-${this.n}-${++this.#chatSeq})`;
        const delivered = new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(false), 10_000);
          socket.on(CHAT_HUB.receiveMessage, (_name: string, text: string) => {
            if (text === content) {
              clearTimeout(timer);
              resolve(true);
            }
          });
        });
        this.#o.world.sentChats.set(content, performance.now());
        const sent = await this.#api<ChatMessage>('chat.send', 'POST', '/api/chat/send', { json: { tradeOfferId: offer.id, content } }, [201], REFUSALS.chat);
        if (!sent) {
          this.#o.world.sentChats.delete(content);
          return;
        }
        this.#o.world.acceptedChats.push({ offerId: offer.id, senderId: this.id, content });
        if (!(await delivered)) this.#recorder.error('chat.delivery', 'not delivered to the sender\'s own socket within 10 s');
        const other = offer.senderID === this.id ? offer.receiverID : offer.senderID;
        this.#o.world.nudge(other);
      }
      await this.#think(0.5);
    } finally {
      socket.disconnect();
    }
  }

  /** The hub for one offer (websocket only, the token in the query as the browser sends it); every message for a run's chat is timed. */
  async #connect(offerId: number): Promise<Socket | undefined> {
    const { client, world } = this.#o;
    const started = performance.now();
    const socket = io(client.base.origin, {
      path: CHAT_HUB.path,
      transports: [...CHAT_HUB.transports],
      query: { [CHAT_HUB.offerParam]: String(offerId), [CHAT_HUB.tokenParam]: this.token },
      extraHeaders: { origin: client.base.origin, ...client.traceHeaders('GET', CHAT_HUB.path) },
      reconnection: false,
      forceNew: true,
      // engine.io passes these on to the websocket (node only): this member's own source address.
      ...(client.socketOptions as object),
    });
    socket.on(CHAT_HUB.receiveMessage, (_name: string, text: string) => {
      const sentAt = world.sentChats.get(text);
      if (sentAt !== undefined) this.#recorder.time('chat.delivery', performance.now() - sentAt);
    });
    const outcome = await new Promise<string | undefined>((resolve) => {
      const timer = setTimeout(() => resolve('no connection within 10 s'), 10_000);
      socket.once('connect', () => {
        clearTimeout(timer);
        resolve(undefined);
      });
      socket.once('connect_error', (err) => {
        clearTimeout(timer);
        resolve(err.message);
      });
    });
    if (outcome === undefined) {
      this.#recorder.time('chat.connect', performance.now() - started);
      return socket;
    }
    socket.disconnect();
    this.#recorder.error('chat.connect', outcome);
    return undefined;
  }
}
