import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ImagePlus, Trash2 } from 'lucide-react';
import {
  categoryApi,
  IDEMPOTENCY_KEY_HEADER,
  LISTING_DESCRIPTION_MAX_LENGTH,
  LISTING_DESCRIPTION_WARN_LENGTH,
  LISTING_MESSAGES,
  LISTING_TITLE_MAX_LENGTH,
  LISTING_TITLE_WARN_LENGTH,
  listingApi,
  PREMIUM_HEAD_START_HOURS,
  type Listing,
} from '@ruilplein/contracts/browser';
import { ApiError, buttonClass, ErrorMessage, request, Spinner, useApi, useSession } from '@ruilplein/ui';
import { Link } from 'react-router-dom';
import { CategoryIcon } from '../categories/CategoryIcon.tsx';
import { DemandLine } from '../demand/DemandLine.tsx';
import { Notice, type NoticeValue } from '../my-listings/Notice.tsx';
import { invalidateListingData } from '../my-listings/queries.ts';
import { PhotoCarousel, type CarouselPhoto } from '../common/PhotoCarousel.tsx';
import { addPhotos, addProblem, editProblem, listingFormData, type DraftField, type ListingDraft } from './validation.ts';
import * as styles from './ListingForm.module.css';

const draftOf = (listing?: Listing): ListingDraft => ({
  listingType: listing?.listingType ?? 'item',
  acceptsItems: listing?.acceptsItems ?? false,
  title: listing?.title ?? '',
  description: listing?.description ?? '',
  // Shown with a decimal comma, as Dutch members type it.
  value: listing?.initialValue == null ? '' : String(listing.initialValue).replace('.', ','),
  categoryIds: listing?.listingCategories.map((category) => category.id) ?? [],
  isPremium: listing?.isPremium ?? false,
});

const kilobytes = new Intl.NumberFormat('nl-NL', { maximumFractionDigits: 0 });
const percent = new Intl.NumberFormat('nl-NL', { style: 'percent', maximumFractionDigits: 0 });
const clock = new Intl.DateTimeFormat('nl-NL', { weekday: 'long', hour: '2-digit', minute: '2-digit' });
const headStartMs = PREMIUM_HEAD_START_HOURS * 3600_000;

/**
 * A required field's mark: a star to see, drawn by CSS with an empty alternative text, so it is
 * neither read out nor part of the label (the form's first line says what it means). A control
 * with `required` is announced as such; a group (`spoken`) says it in its name.
 */
function Required({ spoken = false }: { spoken?: boolean }) {
  return (
    <>
      <span className={styles.required} />
      {spoken && <span className={styles.visuallyHidden}> (verplicht)</span>}
    </>
  );
}

/** A field's problem, right under it; the field names it in `aria-describedby` and has the focus. */
function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className={styles.error}>
      {message}
    </p>
  );
}

/** Who sees the listing: a new one only Premium members for the head start, an edited one from the end of it. */
function Visibility({ listing, premium, now }: { listing?: Listing; premium: boolean; now: number }) {
  const until = listing ? Date.parse(listing.createdAt) + headStartMs : undefined;
  const text =
    until === undefined
      ? LISTING_MESSAGES.headStart
      : until > now
        ? `Tot ${clock.format(until)} zien alleen premium leden deze listing; daarna kunnen alle leden hem zien.`
        : 'Je listing is openbaar: alle leden kunnen hem zien.';
  if (premium) return <span className={styles.hint}>{text}</span>;
  return (
    <p className={styles.publicNote}>
      {text} Een listing alleen voor premium leden plaatsen kan met Premium. <Link to="/dashboard/membership">Bekijk het lidmaatschap</Link>
    </p>
  );
}

/** A character counter that turns red past the warning length. */
function Counter({ id, length, warn, max }: { id: string; length: number; warn: number; max: number }) {
  return (
    <span id={id} className={length > warn ? styles.counterWarn : styles.counter}>
      {length} / {max} tekens
    </span>
  );
}

/** A random Idempotency-Key; `randomUUID` exists only on secure origins, `getRandomValues` everywhere. */
const newSubmissionKey = () => crypto.randomUUID?.() ?? Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

/**
 * The add form (no `listing`) and the edit form of spec 2 §2: type, barter policy, title,
 * description, categories, value, photos (a Dutch control with thumbnails, and a preview),
 * Premium-only; required fields marked, a problem shown at its field with the focus there; sent as
 * multipart with the upload's real progress, then a confirmation with a link to the listing.
 */

export function ListingForm({ listing }: { listing?: Listing }) {
  const editing = Boolean(listing);
  const session = useSession();
  const queries = useQueryClient();
  const categories = useApi(categoryApi.list, {}, { staleTime: 10 * 60_000 });
  const [draft, setDraft] = useState<ListingDraft>(() => draftOf(listing));
  const [photos, setPhotos] = useState<File[]>([]);
  const [previews, setPreviews] = useState<CarouselPhoto[]>([]);
  const [invalid, setInvalid] = useState<{ field: DraftField; message: string } | null>(null);
  const [notice, setNotice] = useState<NoticeValue | null>(null);
  const [progress, setProgress] = useState(0);
  const [openedAt] = useState(() => Date.now());
  const fileInput = useRef<HTMLInputElement>(null);
  const confirmation = useRef<HTMLParagraphElement>(null);
  // One Idempotency-Key per submission of a new listing: kept while the form stays as sent, so
  // sending it again after an error (a lost answer, a timeout) cannot place it twice; a change to
  // the form makes the next send a new submission.
  const submission = useRef<string | undefined>(undefined);
  const fields = useRef<Partial<Record<DraftField, HTMLElement | null>>>({});
  const id = useId();
  const ids = {
    title: `${id}-title`,
    titleCount: `${id}-title-count`,
    description: `${id}-description`,
    descriptionCount: `${id}-description-count`,
    value: `${id}-value`,
    policy: `${id}-policy`,
    photos: `${id}-photos`,
    photosHint: `${id}-photos-hint`,
    photosStatus: `${id}-photos-status`,
    progress: `${id}-progress`,
  };

  // Each chosen photo's preview lives as long as it is chosen.
  useEffect(() => {
    const urls = photos.map((photo) => URL.createObjectURL(photo));
    // eslint-disable-next-line react-hooks/set-state-in-effect -- object URLs are an outside resource, made and revoked here with the photos (StrictMode's second run gets fresh ones); the state carries them to the render.
    setPreviews(urls.map((src, index) => ({ src, alt: `Gekozen afbeelding ${index + 1}: ${photos[index]!.name}` })));
    return () => urls.forEach((url) => URL.revokeObjectURL(url));
  }, [photos]);

  // The ui client's upload transport: progress from XMLHttpRequest, and the token renewal and the
  // suspension handling of every other call.
  const save = useMutation({
    mutationFn: ({ form, idempotencyKey }: { form: FormData; idempotencyKey?: string }) =>
      listing
        ? request(listingApi.update, { params: { id: listing.id }, form, onUploadProgress: setProgress })
        : request(listingApi.create, { form, onUploadProgress: setProgress, ...(idempotencyKey && { headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey } }) }),
    onSuccess: async () => {
      setNotice(null);
      await invalidateListingData(queries);
    },
    onError: (err) => {
      if (err instanceof ApiError && err.status !== 0) return setNotice({ ok: false, message: `❌ Fout: ${err.message || 'Onbekende fout'}` });
      setNotice({ ok: false, message: editing ? '❌ Er ging iets mis tijdens het bijwerken.' : '❌ Er ging iets mis bij het toevoegen van de listing.' });
    },
  });
  const busy = save.isPending;
  const saved = save.data?.listing;

  // The confirmation replaces the form: the focus goes to it, so it is read out and the links come next.
  useEffect(() => {
    if (saved) confirmation.current?.focus();
  }, [saved]);

  const change = (next: Partial<ListingDraft>) => {
    submission.current = undefined;
    setDraft((current) => ({ ...current, ...next }));
  };

  const choosePhotos = (chosen: FileList | null) => {
    if (!chosen?.length) return;
    const { photos: next, problem } = addPhotos(photos, [...chosen]);
    submission.current = undefined;
    setPhotos(next);
    setNotice(null);
    if (problem) setInvalid({ field: 'photos', message: problem });
    else if (invalid?.field === 'photos') setInvalid(null);
  };

  const removePhoto = (index: number) => {
    submission.current = undefined;
    setPhotos(photos.filter((_, at) => at !== index));
    fields.current.photos?.focus();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const problem = editing ? editProblem(draft) : addProblem(draft, photos.length, session.isAuthenticated);
    setInvalid(problem?.field ? { field: problem.field, message: problem.message } : null);
    if (problem) {
      // A field's problem shows under it and the focus goes there; one without a field at the bottom.
      setNotice(problem.field ? null : { ok: false, message: problem.message });
      if (problem.field) fields.current[problem.field]?.focus();
      return;
    }
    setNotice(null);
    setProgress(0);
    // Only a service accepts items; a member without Premium cannot make a Premium-only listing.
    const sent = { ...draft, acceptsItems: draft.listingType === 'service' && draft.acceptsItems, isPremium: session.isPremium && draft.isPremium };
    if (!editing) submission.current ??= newSubmissionKey();
    save.mutate({ form: listingFormData(sent, photos, editing ? 'update' : 'create'), ...(!editing && { idempotencyKey: submission.current }) });
  };

  const current: CarouselPhoto[] =
    listing?.listingPhotos.map((photo, index) => ({ src: photo.imageUrl, alt: `Huidige afbeelding ${index + 1} van ${listing.title}` })) ?? [];
  const shownPhotos = previews.length > 0 ? previews : current;
  const demandReady = draft.title.trim() !== '' && draft.categoryIds.length > 0;
  const errorId = (field: DraftField) => `${id}-${field}-error`;
  const problemOf = (field: DraftField) => (invalid?.field === field ? invalid.message : undefined);
  /** `aria-invalid` and the descriptions (the error first) of a field. */
  const invalidProps = (field: DraftField, ...describedBy: string[]) => {
    const described = [...(problemOf(field) ? [errorId(field)] : []), ...describedBy];
    return { 'aria-invalid': problemOf(field) ? true : undefined, 'aria-describedby': described.length > 0 ? described.join(' ') : undefined };
  };

  if (saved) {
    return (
      <section className={styles.done} aria-label="Listing opgeslagen">
        <p ref={confirmation} tabIndex={-1} className={styles.doneMessage}>
          ✅ {editing ? LISTING_MESSAGES.updated : LISTING_MESSAGES.created}
        </p>
        {!editing && <p className={styles.hint}>{LISTING_MESSAGES.headStart}</p>}
        <div className={styles.actions}>
          <Link to={`/dashboard/listing/${encodeURIComponent(saved.id)}`} className={buttonClass()}>
            Bekijk je listing
          </Link>
          <Link to="/dashboard/my-listings" className={buttonClass('secondary')}>
            Naar Mijn Listings
          </Link>
        </div>
      </section>
    );
  }

  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-busy={busy}>
      <p className={styles.hint}>Velden met * zijn verplicht.</p>
      <fieldset className={styles.toggle}>
        <legend>Soort listing</legend>
        {(['item', 'service'] as const).map((type) => (
          <label key={type} className={draft.listingType === type ? styles.toggleOn : styles.toggleOff}>
            <input type="radio" name={`${id}-type`} value={type} checked={draft.listingType === type} onChange={() => change({ listingType: type })} />
            {type === 'item' ? 'Item' : 'Dienst'}
          </label>
        ))}
      </fieldset>

      {draft.listingType === 'service' && (
        <div className={styles.field}>
          <label htmlFor={ids.policy}>Ruilbeleid</label>
          <select id={ids.policy} value={draft.acceptsItems ? 'items' : 'services'} onChange={(event) => change({ acceptsItems: event.target.value === 'items' })}>
            <option value="services">Alleen diensten ↔ diensten</option>
            <option value="items">Diensten ↔ óók spullen toegestaan</option>
          </select>
        </div>
      )}

      <div className={styles.field}>
        <label htmlFor={ids.title}>
          Titel
          <Required />
        </label>
        <input
          id={ids.title}
          ref={(element) => {
            fields.current.title = element;
          }}
          value={draft.title}
          maxLength={LISTING_TITLE_MAX_LENGTH}
          required
          {...invalidProps('title', ids.titleCount)}
          onChange={(event) => change({ title: event.target.value })}
        />
        <FieldError id={errorId('title')} message={problemOf('title')} />
        <Counter id={ids.titleCount} length={draft.title.length} warn={LISTING_TITLE_WARN_LENGTH} max={LISTING_TITLE_MAX_LENGTH} />
      </div>

      <div className={styles.field}>
        <label htmlFor={ids.description}>
          Beschrijving
          <Required />
        </label>
        <textarea
          id={ids.description}
          ref={(element) => {
            fields.current.description = element;
          }}
          rows={6}
          value={draft.description}
          maxLength={LISTING_DESCRIPTION_MAX_LENGTH}
          required
          {...invalidProps('description', ids.descriptionCount)}
          onChange={(event) => change({ description: event.target.value })}
        />
        <FieldError id={errorId('description')} message={problemOf('description')} />
        <Counter id={ids.descriptionCount} length={draft.description.length} warn={LISTING_DESCRIPTION_WARN_LENGTH} max={LISTING_DESCRIPTION_MAX_LENGTH} />
      </div>

      <fieldset
        className={styles.categories}
        ref={(element) => {
          fields.current.categories = element;
        }}
        tabIndex={-1}
        aria-describedby={problemOf('categories') ? errorId('categories') : undefined}
      >
        <legend>
          Categorieën
          <Required spoken />
        </legend>
        <FieldError id={errorId('categories')} message={problemOf('categories')} />
        {categories.isPending ? (
          <Spinner label="Categorieën laden…" />
        ) : categories.isError ? (
          <ErrorMessage message="De categorieën konden niet worden geladen." onRetry={() => void categories.refetch()} />
        ) : (
          <ul className={styles.categoryList}>
            {categories.data.map((category) => {
              const locked = category.isPremium && !session.isPremium;
              const hintId = `${id}-category-${category.id}-hint`;
              return (
                <li key={category.id}>
                  <label className={locked ? styles.categoryLocked : styles.category}>
                    <input
                      type="checkbox"
                      value={category.id}
                      checked={draft.categoryIds.includes(category.id)}
                      disabled={locked}
                      aria-describedby={locked ? hintId : undefined}
                      onChange={(event) =>
                        change({
                          categoryIds: event.target.checked ? [...draft.categoryIds, category.id] : draft.categoryIds.filter((chosen) => chosen !== category.id),
                        })
                      }
                    />
                    <CategoryIcon name={category.icon} />
                    <span>{category.name}</span>
                  </label>
                  {locked && (
                    <span id={hintId} className={styles.hint}>
                      {LISTING_MESSAGES.premiumCategoryOnly}
                    </span>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </fieldset>

      {/* Once title and categories say what it is: who nearby is looking for it (issue 23). */}
      {!editing && <DemandLine q={demandReady ? draft.title : ''} categoryIds={demandReady ? draft.categoryIds : []} />}

      <div className={styles.field}>
        <label htmlFor={ids.value}>Geschatte waarde in euro (optioneel)</label>
        <input
          id={ids.value}
          ref={(element) => {
            fields.current.value = element;
          }}
          inputMode="decimal"
          autoComplete="off"
          placeholder="Bijvoorbeeld 25,50"
          value={draft.value}
          {...invalidProps('value')}
          onChange={(event) => change({ value: event.target.value })}
        />
        <FieldError id={errorId('value')} message={problemOf('value')} />
      </div>

      {/* The browser's own file control speaks English ('No file chosen'): hidden, opened by a Dutch button. */}
      <fieldset className={styles.photos}>
        <legend>
          Afbeeldingen
          {!editing && <Required spoken />}
        </legend>
        <span id={ids.photosHint} className={styles.hint}>
          {LISTING_MESSAGES.photosHint}
          {editing && ' Nieuwe afbeeldingen vervangen de huidige; kies je er geen, dan blijven de huidige staan.'}
        </span>
        <input
          id={ids.photos}
          ref={fileInput}
          type="file"
          accept="image/*"
          multiple
          hidden
          tabIndex={-1}
          onChange={(event) => {
            choosePhotos(event.target.files);
            // The list below is the choice: the same file may be chosen again after removing it.
            event.target.value = '';
          }}
        />
        <div className={styles.photoPicker}>
          <button
            type="button"
            ref={(element) => {
              fields.current.photos = element;
            }}
            className={buttonClass('secondary')}
            {...invalidProps('photos', ids.photosStatus, ids.photosHint)}
            onClick={() => fileInput.current?.click()}
          >
            <ImagePlus aria-hidden="true" size={18} />
            Afbeeldingen kiezen
          </button>
          <span id={ids.photosStatus} className={styles.photoStatus}>
            {photos.length === 0
              ? editing
                ? 'Geen nieuwe afbeeldingen gekozen'
                : 'Nog geen afbeeldingen gekozen'
              : photos.length === 1
                ? '1 afbeelding gekozen'
                : `${photos.length} afbeeldingen gekozen`}
          </span>
        </div>
        <FieldError id={errorId('photos')} message={problemOf('photos')} />
        {photos.length > 0 && (
          <ul className={styles.photoList} aria-label="Gekozen afbeeldingen">
            {photos.map((photo, index) => (
              <li key={`${photo.name}-${index}`}>
                {previews[index] && <img src={previews[index].src} alt="" className={styles.thumbnail} />}
                <span className={styles.photoName}>
                  {photo.name} ({kilobytes.format(photo.size / 1024)} kB)
                </span>
                <button type="button" className={buttonClass('link')} onClick={() => removePhoto(index)}>
                  <Trash2 aria-hidden="true" size={16} />
                  Verwijderen<span className={styles.visuallyHidden}> {photo.name}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
        {shownPhotos.length > 0 && (
          <div className={styles.preview}>
            <PhotoCarousel photos={shownPhotos} counter="words" />
          </div>
        )}
      </fieldset>

      {session.isPremium ? (
        <div className={styles.field}>
          <label className={styles.check}>
            <input type="checkbox" checked={draft.isPremium} onChange={(event) => change({ isPremium: event.target.checked })} />
            Alleen zichtbaar voor premium leden
          </label>
          {!draft.isPremium && <Visibility listing={listing} premium now={openedAt} />}
        </div>
      ) : (
        <Visibility listing={listing} premium={false} now={openedAt} />
      )}

      {/* The upload's real progress; once all is sent, the service still stores the photos. */}
      {save.isPending && (
        <div className={styles.progress} data-testid="upload-progress">
          <span id={ids.progress}>{progress < 1 ? `Bezig met uploaden: ${percent.format(progress)}` : 'Verwerken…'}</span>
          {progress < 1 ? <progress aria-labelledby={ids.progress} max={1} value={progress} /> : <progress aria-labelledby={ids.progress} />}
        </div>
      )}

      <Notice notice={notice} />

      <div className={styles.actions}>
        <button type="submit" className={buttonClass()} disabled={busy}>
          {busy ? 'Bezig...' : editing ? 'Listing Bijwerken' : 'Listing Toevoegen'}
        </button>
        <Link to="/dashboard/my-listings" className={buttonClass('secondary')}>
          Annuleren
        </Link>
      </div>
    </form>
  );
}
