import { lazy, Suspense, useEffect, useState, type FormEvent } from 'react';
import { userApi, type User as OwnUser } from '@ruilplein/contracts/browser';
import { ApiError, EmptyState, ErrorMessage, Page, request, Spinner, useSession } from '@ruilplein/ui';
import { lookUpPlace, PlaceSearch, type CityValue } from '../account/PlaceSearch.tsx';
import { requestPasswordReset } from '../account/ResetPassword.tsx';
import { pictureAccept, pictureError, profileErrors, type FieldErrors, type ProfileFields } from '../account/validation.ts';
import { defaultAvatar } from '../public/site.ts';
import { formatRating, useStats } from './useStats.ts';
import { FormNotice } from '../account/FormNotice.tsx';

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

function Stats({ userId }: { userId: string }) {
  const [state, retry] = useStats(userId);
  if (state.kind === 'loading') return <Spinner />;
  if (state.kind === 'error') return <ErrorMessage message="Je statistieken konden niet worden geladen." onRetry={retry} />;
  const { stats } = state;
  return (
    <dl className="stats" data-testid="profile-stats">
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
  );
}

/** /dashboard/profile, 'Mijn profiel' (spec 1 §2, §4, §5). */
export function Profile() {
  const { setUser } = useSession();
  const [record, setRecord] = useState<OwnUser | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [editing, setEditing] = useState(false);
  const [form, setForm] = useState<Form | null>(null);
  const [picture, setPicture] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);
  const [notice, setNotice] = useState<{ ok: boolean; message: string } | null>(null);

  // Loads again on a retry, not on a renewed token: that would reset a form being edited.
  useEffect(() => {
    const abort = new AbortController();
    setLoadFailed(false);
    request(userApi.my, { signal: abort.signal })
      .then((user) => {
        setRecord(user);
        setForm(formOf(user));
      })
      .catch(() => !abort.signal.aborted && setLoadFailed(true));
    return () => abort.abort();
  }, [attempt]);

  // The chosen picture's preview lives until another is chosen or the form closes.
  useEffect(() => {
    if (!picture) return setPreview(null);
    const url = URL.createObjectURL(picture);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [picture]);

  if (loadFailed) {
    return (
      <Page title="Mijn profiel">
        <ErrorMessage message="Je profiel kon niet worden geladen." onRetry={() => setAttempt((n) => n + 1)} />
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

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setNotice(null);
    const fields = { firstName: form.firstName.trim(), lastName: form.lastName.trim(), email: form.email.trim() };
    const found: Errors = profileErrors(fields);
    const badPicture = picture && pictureError(picture);
    if (badPicture) found.picture = badPicture;
    setErrors(found);
    if (Object.keys(found).length) return;

    setSaving(true);
    try {
      let city = { ...form.city, city: form.city.city.trim() };
      if (city.city && city.latitude === undefined) {
        const place = await lookUpPlace(city.city);
        if (!place) {
          setErrors({ city: 'Woonplaats niet gevonden.' });
          return;
        }
        city = { city: city.city, latitude: place.latitude, longitude: place.longitude };
      }
      const located = city.city && city.latitude !== undefined && city.longitude !== undefined;
      const answer = await request(userApi.update, {
        // An empty city clears it (and its coordinates).
        body: { ...fields, city: city.city, ...(located && { latitude: String(city.latitude), longitude: String(city.longitude) }) },
        files: { profilePicture: picture },
      });
      setRecord(answer.user);
      setForm(formOf(answer.user));
      setUser(answer.user);
      setPicture(null);
      setEditing(false);
      setNotice({ ok: true, message: answer.message ?? 'Je profiel is opgeslagen.' });
    } catch (err) {
      setNotice({ ok: false, message: err instanceof ApiError && err.status !== 0 ? `Fout bij opslaan: ${err.message}` : 'Er ging iets mis tijdens het opslaan.' });
    } finally {
      setSaving(false);
    }
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
    <div className="field">
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
        <span id={`profile-${name}-error`} className="field-error">
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
      <div className="profile">
        <section className="profile-card" aria-label="Accountgegevens">
          <img className="profile-avatar" src={preview ?? record.profilePicture ?? defaultAvatar} alt={`Profielfoto van ${record.firstName}`} width={120} height={120} />
          {editing ? (
            <form className="account-form" onSubmit={save} noValidate>
              {input('firstName', 'Voornaam')}
              {input('lastName', 'Achternaam')}
              {input('email', 'E-mailadres', 'email')}
              <PlaceSearch label="Woonplaats" value={form.city} onChange={(city) => setForm({ ...form, city })} />
              {errors.city && <span className="field-error">{errors.city}</span>}
              <div className="field">
                <label htmlFor="profile-picture">Profielfoto (JPG, PNG of WEBP, hoogstens 5MB)</label>
                <input id="profile-picture" type="file" accept={pictureAccept} onChange={(event) => setPicture(event.target.files?.[0] ?? null)} />
                {errors.picture && <span className="field-error">{errors.picture}</span>}
              </div>
              <div className="form-actions">
                <button type="submit" disabled={saving}>
                  {saving ? 'Bezig met opslaan…' : 'Opslaan'}
                </button>
                <button type="button" className="secondary" onClick={cancel} disabled={saving}>
                  Annuleren
                </button>
              </div>
            </form>
          ) : (
            <>
              <dl className="profile-data">
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
              <div className="form-actions">
                <button type="button" onClick={() => setEditing(true)}>
                  Profiel bewerken
                </button>
                <button type="button" className="secondary" onClick={requestReset}>
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
        {/* Reviews come with the trade service; until then nobody has any. */}
        <EmptyState>Je hebt nog geen beoordelingen ontvangen.</EmptyState>
      </section>
    </Page>
  );
}
