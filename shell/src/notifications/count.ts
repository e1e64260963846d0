// Plain helpers of the notifications (the tab title with the unread count, the list's cursor), so a node test reads them.
const prefixed = /^\(\d+\) /;

/** The title with `(count) ` before it; none for 0, and never twice. */
export function titleWithCount(title: string, count: number): string {
  const bare = title.replace(prefixed, '');
  return count > 0 ? `(${count}) ${bare}` : bare;
}

/** The `before` cursor of the page after `last`: the id of its oldest; none after a page that was not full. */
export const nextBefore = (last: readonly { id: string }[], pageSize: number): string | undefined => (last.length < pageSize ? undefined : last.at(-1)?.id);
