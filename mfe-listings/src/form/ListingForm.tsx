import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import {
  categoryApi,
  LISTING_DESCRIPTION_MAX_LENGTH,
  LISTING_DESCRIPTION_WARN_LENGTH,
  LISTING_MESSAGES,
  LISTING_TITLE_MAX_LENGTH,
  LISTING_TITLE_WARN_LENGTH,
  listingApi,
  type Listing,
} from '@ruilplein/contracts/browser';
import { ApiError, buttonClass, ErrorMessage, Spinner, useApi, useSession } from '@ruilplein/ui';
import { Link, useNavigate } from 'react-router-dom';
import { CategoryIcon } from '../categories/CategoryIcon.tsx';
import { DemandLine } from '../demand/DemandLine.tsx';
import { Notice, type NoticeValue } from '../my-listings/Notice.tsx';
import { invalidateListingData } from '../my-listings/queries.ts';
import { PhotoCarousel, type CarouselPhoto } from '../common/PhotoCarousel.tsx';
import { uploadWithProgress } from './uploadWithProgress.ts';
import { addPhotos, addProblem, editProblem, listingFormData, type DraftField, type ListingDraft } from './validation.ts';
import * as styles from './ListingForm.module.css';

/** After a save the form says so briefly, then goes back to 'Mijn Listings' (spec 2 §9). */
const redirectDelayMs = 150;

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

/** A character counter that turns red past the warning length. */
function Counter({ id, length, warn, max }: { id: string; length: number; warn: number; max: number }) {
  return (
    <span id={id} className={length > warn ? styles.counterWarn : styles.counter}>
      {length} / {max} tekens
    </span>
  );
}

/**
 * The add form (no `listing`) and the edit form of spec 2 §2: type, barter policy, title,
 * description, categories, value, photos with a preview, Premium-only; sent as multipart with the
 * upload's progress shown, then back to 'Mijn Listings'.
 */
/** A random Idempotency-Key; `randomUUID` exists only on secure origins, `getRandomValues` everywhere. */
const newSubmissionKey = () => crypto.randomUUID?.() ?? Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

export function ListingForm({ listing }: { listing?: Listing }) {
  const editing = Boolean(listing);
  const session = useSession();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const categories = useApi(categoryApi.list, {}, { staleTime: 10 * 60_000 });
  const [draft, setDraft] = useState<ListingDraft>(() => draftOf(listing));
  const [photos, setPhotos] = useState<File[]>([]);
  const [previews, setPreviews] = useState<CarouselPhoto[]>([]);
  const [invalid, setInvalid] = useState<DraftField | null>(null);
  const [notice, setNotice] = useState<NoticeValue | null>(null);
  const [progress, setProgress] = useState(0);
  const [saved, setSaved] = useState(false);
  const redirect = useRef<ReturnType<typeof setTimeout>>(undefined);
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
    progress: `${id}-progress`,
  };

  // Each chosen photo's preview lives as long as it is chosen.
  useEffect(() => {
    const urls = photos.map((photo) => URL.createObjectURL(photo));
    setPreviews(urls.map((src, index) => ({ src, alt: `Gekozen afbeelding ${index + 1}: ${photos[index]!.name}` })));
    return () => urls.forEach((url) => URL.revokeObjectURL(url));
  }, [photos]);

  useEffect(() => () => clearTimeout(redirect.current), []);

  const save = useMutation({
    mutationFn: ({ form, idempotencyKey }: { form: FormData; idempotencyKey?: string }) =>
      uploadWithProgress<{ message: string; listing: Listing }>({
        method: 'POST',
        url: listing ? listingApi.update.path.replace(':id', encodeURIComponent(listing.id)) : listingApi.create.path,
        form,
        token: session.token,
        onProgress: setProgress,
        ...(idempotencyKey && { idempotencyKey }),
      }),
    onSuccess: async () => {
      setSaved(true);
      setNotice({ ok: true, message: `✅ ${editing ? LISTING_MESSAGES.updated : LISTING_MESSAGES.created}` });
      redirect.current = setTimeout(() => navigate('/dashboard/my-listings'), redirectDelayMs);
      await invalidateListingData(queries);
    },
    onError: (err) => {
      if (err instanceof ApiError && err.status !== 0) return setNotice({ ok: false, message: `❌ Fout: ${err.message || 'Onbekende fout'}` });
      setNotice({ ok: false, message: editing ? '❌ Er ging iets mis tijdens het bijwerken.' : '❌ Er ging iets mis bij het toevoegen van de listing.' });
    },
  });
  const busy = save.isPending || saved;

  const change = (next: Partial<ListingDraft>) => {
    submission.current = undefined;
    setDraft((current) => ({ ...current, ...next }));
  };

  const choosePhotos = (chosen: FileList | null) => {
    if (!chosen?.length) return;
    const { photos: next, problem } = addPhotos(photos, [...chosen]);
    submission.current = undefined;
    setPhotos(next);
    setNotice(problem ? { ok: false, message: problem } : null);
    if (!problem && invalid === 'photos') setInvalid(null);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const problem = editing ? editProblem(draft) : addProblem(draft, photos.length, session.isAuthenticated);
    setInvalid(problem?.field ?? null);
    if (problem) {
      setNotice({ ok: false, message: problem.message });
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
  const invalidProps = (field: DraftField) => ({ 'aria-invalid': invalid === field ? true : undefined });

  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-busy={busy}>
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
        <label htmlFor={ids.title}>Titel</label>
        <input
          id={ids.title}
          ref={(element) => {
            fields.current.title = element;
          }}
          value={draft.title}
          maxLength={LISTING_TITLE_MAX_LENGTH}
          aria-describedby={ids.titleCount}
          {...invalidProps('title')}
          onChange={(event) => change({ title: event.target.value })}
        />
        <Counter id={ids.titleCount} length={draft.title.length} warn={LISTING_TITLE_WARN_LENGTH} max={LISTING_TITLE_MAX_LENGTH} />
      </div>

      <div className={styles.field}>
        <label htmlFor={ids.description}>Beschrijving</label>
        <textarea
          id={ids.description}
          ref={(element) => {
            fields.current.description = element;
          }}
          rows={6}
          value={draft.description}
          maxLength={LISTING_DESCRIPTION_MAX_LENGTH}
          aria-describedby={ids.descriptionCount}
          {...invalidProps('description')}
          onChange={(event) => change({ description: event.target.value })}
        />
        <Counter id={ids.descriptionCount} length={draft.description.length} warn={LISTING_DESCRIPTION_WARN_LENGTH} max={LISTING_DESCRIPTION_MAX_LENGTH} />
      </div>

      <fieldset
        className={styles.categories}
        ref={(element) => {
          fields.current.categories = element;
        }}
        tabIndex={-1}
        {...invalidProps('categories')}
      >
        <legend>Categorieën</legend>
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
      </div>

      <div className={styles.field}>
        <label htmlFor={ids.photos}>Afbeeldingen</label>
        <span id={ids.photosHint} className={styles.hint}>
          Hoogstens 5 afbeeldingen, samen tot 20 MB.
          {editing && ' Nieuwe afbeeldingen vervangen de huidige; kies je er geen, dan blijven de huidige staan.'}
        </span>
        <input
          id={ids.photos}
          ref={(element) => {
            fields.current.photos = element;
          }}
          type="file"
          accept="image/*"
          multiple
          aria-describedby={ids.photosHint}
          {...invalidProps('photos')}
          onChange={(event) => {
            choosePhotos(event.target.files);
            // The list below is the choice: the same file may be chosen again after removing it.
            event.target.value = '';
          }}
        />
        {photos.length > 0 && (
          <ul className={styles.photoList} aria-label="Gekozen afbeeldingen">
            {photos.map((photo, index) => (
              <li key={`${photo.name}-${index}`}>
                <span>
                  {photo.name} ({kilobytes.format(photo.size / 1024)} kB)
                </span>
                <button type="button" className={buttonClass('link')} onClick={() => {
                  submission.current = undefined;
                  setPhotos(photos.filter((_, at) => at !== index));
                }}>
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
      </div>

      {session.isPremium ? (
        <label className={styles.check}>
          <input type="checkbox" checked={draft.isPremium} onChange={(event) => change({ isPremium: event.target.checked })} />
          Alleen zichtbaar voor premium leden
        </label>
      ) : (
        <p className={styles.publicNote}>
          Je listing is openbaar: alle leden kunnen hem zien. Een listing alleen voor premium leden plaatsen kan met Premium.{' '}
          <Link to="/dashboard/membership">Bekijk het lidmaatschap</Link>
        </p>
      )}

      {save.isPending && (
        <div className={styles.progress}>
          <span id={ids.progress}>{progress < 1 ? `Bezig met uploaden: ${percent.format(progress)}` : 'Afbeeldingen worden verwerkt…'}</span>
          <progress aria-labelledby={ids.progress} max={1} value={progress} />
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
