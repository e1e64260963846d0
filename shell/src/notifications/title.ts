// `(3) ` before the tab's title while there are unread notifications. Pages set document.title
// themselves (PageMeta, the remote outlet, a remote's screen), at any time: the prefix is put back
// whenever the title changes, and taken off when the count goes to 0 or the member leaves.
import { useEffect } from 'react';
import { titleWithCount } from './count.ts';

export function useUnreadTitle(count: number): void {
  useEffect(() => {
    const apply = () => {
      const next = titleWithCount(document.title, count);
      if (next !== document.title) document.title = next;
    };
    apply();
    // A page setting its title replaces the <title>'s text (or, when there was none, adds one).
    const observer = new MutationObserver(apply);
    observer.observe(document.head, { subtree: true, childList: true, characterData: true });
    return () => {
      observer.disconnect();
      document.title = titleWithCount(document.title, 0);
    };
  }, [count]);
}
