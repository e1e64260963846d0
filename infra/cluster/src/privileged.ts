// A Helm post-renderer (stdin → stdout) that makes every container privileged: `npm run cluster`
// installs a chart through it to show that Pod Security "restricted" refuses its pods.
import { text } from 'node:stream/consumers';
import { parseAllDocuments, stringify } from 'yaml';

type Pod = { containers?: Array<{ securityContext?: Record<string, unknown> }> };

export function makePrivileged(manifests: string): string {
  return parseAllDocuments(manifests)
    .map((doc) => doc.toJS() as { spec?: { template?: { spec?: Pod } } } | null)
    .filter((o) => o !== null)
    .map((o) => {
      for (const c of o.spec?.template?.spec?.containers ?? []) c.securityContext = { ...c.securityContext, privileged: true, allowPrivilegeEscalation: true };
      return stringify(o);
    })
    .join('---\n');
}

if (import.meta.main) process.stdout.write(makePrivileged(await text(process.stdin)));
