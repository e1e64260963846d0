/** Date and time in Dutch ('23 nov 2026, 14:05'). */
export const dateTime = (iso: string) => new Date(iso).toLocaleString('nl-NL', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });

/** Today as YYYY-MM-DD: the earliest a ban's end date may be picked (the day after, really: the end is that day's start). */
export const tomorrow = () => {
  const d = new Date(Date.now() + 86_400_000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};
