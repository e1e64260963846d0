import { lazy, Suspense, useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { userApi, type User as OwnUser } from '@ruilplein/contracts/browser';
import { ApiError, apiQuery, buttonClass, ErrorMessage, Loaded, Page, ReceivedReviews, request, Spinner, useApi, useSession } from '@ruilplein/ui';
import { lookUpPlace, PlaceSearch, type CityValue } from '../account/PlaceSearch.tsx';
import { requestPasswordReset } from '../account/ResetPassword.tsx';
import { pictureAccept, pictureError, profileErrors, type FieldErrors, type ProfileFields } from '../account/validation.ts';
import { defaultAvatar } from '../public/site.ts';
import { BlockedMembers } from './Blocked.tsx';
import { formatRating, statsFailed, useStats } from './useStats.ts';
import { FormNotice } from '../account/FormNotice.tsx';
import * as formStyles from '../account/form.module.css';
import * as styles from './Profile.module.css';
import * as statStyles from './stats.module.css';

const ProfileMap = lazy(() => import('./ProfileMap.tsx'));

interface Form extends ProfileFields {
  city: CityValue;
}

const formOf = (user: OwnUser): Form => ({
  firstName: user.firstName,
  lastName: user.lastName,
  email: user.email,
  city: { city: user.city ?? '', latitude: user.latitude ?? undefined, longitude: user.longitude ?? undefined },
});

type Errors = FieldErrors<keyof ProfileFields | 'city' | 'picture'>;

/** A typed city our place search does not know: a field error, not a failed save. */
class CityNotFound extends Error {}

function Stats({ userId }: { userId: string }) {
  return (
    <Loaded query={useStats(userId)} failure={statsFailed}>
      {(stats) => (
        <dl className={statStyles.stats} data-testid="profile-stats">
          <div>
            <dt>Ruilen</dt>
            <dd>{stats.totalTrades}</dd>
          </div>
          <div>
            <dt>Gemiddelde beoordeling</dt>
            <dd>{formatRating(stats)} / 5</dd>
          </div>
          <div>
            <dt>Beoordelingen</dt>
            <dd>{stats.totalReviewers}</dd>
          </div>
          <div>
            <dt>Actieve advertenties</dt>
            <dd>{stats.activeListings}</dd>
          </div>
        </dl>
      )}
    </Loaded>
  );
}

/** /dashboard/profile, 'Mijn profiel' (spec 1 §2, §4, §5). */
export function Profile() {
  const { setUser } = useSession();
  const queries = useQueryClient();
  // Not asked again on a renewed token (the key has none): that would reset a form being edited.
  const my = useApi(userApi.my);
  const record = my.data;
  const setRecord = (user: OwnUser) => queries.setQueryData(apiQuery(userApi.my).queryKey, user);
  const [editing, setEditing] = useState(false);
  const [form, setForm] = useState<Form | null>(null);
  const [picture, setPicture] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [notice, setNotice] = useState<{ ok: boolean; message: string } | null>(null);
  const update = useMutation({
    mutationFn: async ({ fields, city, picture: file }: { fields: ProfileFields; city: CityValue; picture: File | null }) => {
      let place = { ...city, city: city.city.trim() };
      if (place.city && place.latitude === undefined) {
        const found = await lookUpPlace(place.city);
        if (!found) throw new CityNotFound();
        place = { city: place.city, latitude: found.latitude, longitude: found.longitude };
      }
      const located = place.city && place.latitude !== undefined && place.longitude !== undefined;
      return request(userApi.update, {
        // An empty city clears it (and its coordinates).
        body: { ...fields, city: place.city, ...(located && { latitude: String(place.latitude), longitude: String(place.longitude) }) },
        files: { profilePicture: file },
      });
    },
    onSuccess: (answer) => {
      setRecord(answer.user);
      setForm(formOf(answer.user));
      setUser(answer.user);
      setPicture(null);
      setEditing(false);
      setNotice({ ok: true, message: answer.message ?? 'Je profiel is opgeslagen.' });
    },
    onError: (err) => {
      if (err instanceof CityNotFound) return setErrors({ city: 'Woonplaats niet gevonden.' });
      setNotice({ ok: false, message: err instanceof ApiError && err.status !== 0 ? `Fout bij opslaan: ${err.message}` : 'Er ging iets mis tijdens het opslaan.' });
    },
  });
  const saving = update.isPending;

  // The form starts from the record as loaded, and from the saved record after each save.
  useEffect(() => {
    if (record && !editing) setForm(formOf(record));
  }, [record, editing]);

  // The chosen picture's preview lives until another is chosen or the form closes.
  useEffect(() => {
    if (!picture) return setPreview(null);
    const url = URL.createObjectURL(picture);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [picture]);

  if (my.isError) {
    return (
      <Page title="Mijn profiel">
        <ErrorMessage message="Je profiel kon niet worden geladen." onRetry={() => void my.refetch()} />
      </Page>
    );
  }
  if (!record || !form) {
    return (
      <Page title="Mijn profiel">
        <Spinner />
      </Page>
    );
  }

  const cancel = () => {
    setForm(formOf(record));
    setPicture(null);
    setErrors({});
    setEditing(false);
  };

  const save = (event: FormEvent) => {
    event.preventDefault();
    setNotice(null);
    const fields = { firstName: form.firstName.trim(), lastName: form.lastName.trim(), email: form.email.trim() };
    const found: Errors = profileErrors(fields);
    const badPicture = picture && pictureError(picture);
    if (badPicture) found.picture = badPicture;
    setErrors(found);
    if (Object.keys(found).length) return;
    update.mutate({ fields, city: form.city, picture });
  };

  const requestReset = async () => {
    setNotice(null);
    try {
      setNotice({ ok: true, message: await requestPasswordReset(record.email) });
    } catch (err) {
      setNotice({ ok: false, message: err instanceof Error ? err.message : String(err) });
    }
  };

  const input = (name: keyof ProfileFields, label: string, type = 'text') => (
    <div className={formStyles.field}>
      <label htmlFor={`profile-${name}`}>{label}</label>
      <input
        id={`profile-${name}`}
        type={type}
        value={form[name]}
        aria-invalid={Boolean(errors[name])}
        aria-describedby={errors[name] ? `profile-${name}-error` : undefined}
        onChange={(event) => setForm({ ...form, [name]: event.target.value })}
      />
      {errors[name] && (
        <span id={`profile-${name}-error`} className={formStyles.fieldError}>
          {errors[name]}
        </span>
      )}
    </div>
  );

  const hasMap = !editing && record.city && typeof record.latitude === 'number' && typeof record.longitude === 'number';

  return (
    <Page title="Mijn profiel">
      {notice && (
        <FormNotice ok={notice.ok}>
          {notice.message}
        </FormNotice>
      )}
      <div className={styles.profile}>
        <section className={styles.card} aria-label="Accountgegevens">
          <img className={styles.avatar} src={preview ?? record.profilePicture ?? defaultAvatar} alt={`Profielfoto van ${record.firstName}`} width={120} height={120} />
          {editing ? (
            <form className={formStyles.form} onSubmit={save} noValidate>
              {input('firstName', 'Voornaam')}
              {input('lastName', 'Achternaam')}
              {input('email', 'E-mailadres', 'email')}
              <PlaceSearch label="Woonplaats" value={form.city} onChange={(city) => setForm({ ...form, city })} />
              {errors.city && <span className={formStyles.fieldError}>{errors.city}</span>}
              <div className={formStyles.field}>
                <label htmlFor="profile-picture">Profielfoto (JPG, PNG of WEBP, hoogstens 5MB)</label>
                <input id="profile-picture" type="file" accept={pictureAccept} onChange={(event) => setPicture(event.target.files?.[0] ?? null)} />
                {errors.picture && <span className={formStyles.fieldError}>{errors.picture}</span>}
              </div>
              <div className={formStyles.actions}>
                <button type="submit" className={buttonClass()} disabled={saving}>
                  {saving ? 'Bezig met opslaan…' : 'Opslaan'}
                </button>
                <button type="button" className={buttonClass('secondary')} onClick={cancel} disabled={saving}>
                  Annuleren
                </button>
              </div>
            </form>
          ) : (
            <>
              <dl className={styles.data}>
                <div>
                  <dt>Naam</dt>
                  <dd>
                    {record.firstName} {record.lastName}
                  </dd>
                </div>
                <div>
                  <dt>E-mailadres</dt>
                  <dd>{record.email}</dd>
                </div>
                <div>
                  <dt>Woonplaats</dt>
                  <dd data-testid="profile-city">{record.city || 'Niet opgegeven'}</dd>
                </div>
              </dl>
              <div className={formStyles.actions}>
                <button type="button" className={buttonClass()} onClick={() => setEditing(true)}>
                  Profiel bewerken
                </button>
                <button type="button" className={buttonClass('secondary')} onClick={requestReset}>
                  Wachtwoord resetten
                </button>
              </div>
            </>
          )}
        </section>
        {hasMap && (
          <Suspense fallback={<Spinner label="Kaart laden…" />}>
            <ProfileMap city={record.city!} latitude={record.latitude!} longitude={record.longitude!} />
          </Suspense>
        )}
      </div>
      <section aria-labelledby="profile-stats-title">
        <h2 id="profile-stats-title">Ruilstatistieken</h2>
        <Stats userId={record.id} />
      </section>
      <section aria-labelledby="profile-reviews-title">
        <h2 id="profile-reviews-title">Ontvangen beoordelingen</h2>
        <ReceivedReviews userId={record.id} empty="Je hebt nog geen beoordelingen ontvangen." />
      </section>
      <section aria-labelledby="profile-blocked-title">
        <h2 id="profile-blocked-title">Geblokkeerde leden</h2>
        <BlockedMembers />
      </section>
    </Page>
  );
}
