// Reads `vis.state` rows from Vis's database, read-only (no `vscode` import).
// Query (spec §3): kind = '"py-state"' and global scope; keys are EDN strings, values Nippy blobs.
import { t } from '../l10n';
import { NippyError, NippyValue, thaw } from './nippy';
import { Damaged, RowValue, StateDbError, findTable, openSnapshot, readRows } from './sqlite';

export interface StateEntry {
  /** The key as the extension wrote it (the EDN string, read back). */
  key: string;
  /** The stored `aggregate_key` text. */
  rawKey: string;
  keyError?: string;
  value?: NippyValue;
  /** Why the value could not be decoded; the other rows still show. */
  error?: string;
  updatedAt?: number;
  bytes: number;
}

export interface ExtensionState {
  name: string;
  entries: StateEntry[];
  /** Rows whose value is nil: Vis treats them as absent, so they are not listed. */
  hiddenNil: number;
}

export interface StateSnapshot {
  file: string;
  extensions: ExtensionState[];
  walFrames: number;
  journalPages: number;
  /** Rows whose extension, key or kind could not be read (damaged bytes): why, one line each. */
  unreadable: string[];
}

const STATE_KIND = '"py-state"';

/** Parses an `aggregate_key` (Clojure `pr-str` of a string). */
export function parseKey(raw: string): { key: string; error?: string } {
  try {
    const v = JSON.parse(raw);
    if (typeof v === 'string') return { key: v };
  } catch {
    // fall through
  }
  return { key: raw, error: t('the key is not an EDN string') };
}

export async function readState(file: string, attempts = 5): Promise<StateSnapshot> {
  for (let attempt = 1; ; attempt++) {
    const snap = await openSnapshot(file);
    let result: StateSnapshot;
    try {
      const table = await findTable(snap, 'extension_aggregate');
      if (!table) {
        throw new StateDbError('no-table', t('{0} has no extension_aggregate table: it is not a Vis database, or no Vis version that stores extension state has opened it yet.', file));
      }
      const names = new Set(table.columns.map((c) => c.name));
      for (const need of ['extension_id', 'aggregate_key', 'kind', 'content']) {
        if (!names.has(need)) throw new StateDbError('unsupported', t('extension_aggregate has no {0} column: an unknown Vis schema.', need));
      }
      const scope = table.columns.find((c) => c.name === 'scope_key');
      const sessionCols = table.columns.filter((c) => c.name.startsWith('session_') && !c.virtual).map((c) => c.name);
      const rows = await readRows(snap, table);
      const unreadable: string[] = [];
      const state = rows.filter((r) => {
        const bad = [r.extension_id, r.aggregate_key, r.kind].find((v): v is Damaged => v instanceof Damaged);
        if (bad) unreadable.push(t('a row of extension {0} could not be read: {1}', typeof r.extension_id === 'string' ? r.extension_id : '?', bad.reason));
        return !bad && r.kind === STATE_KIND && isGlobal(r, scope && !scope.virtual, sessionCols);
      });
      result = { file, extensions: group(state), walFrames: snap.walFrames, journalPages: snap.journalPages, unreadable };
      if (!(await snap.unchanged())) {
        if (attempt >= attempts) throw new StateDbError('busy', t('{0} kept changing while it was read ({1} tries); try again when Vis is idle.', file, attempts));
        continue;
      }
    } catch (e) {
      if (e instanceof StateDbError && (e.code === 'corrupt' || e.code === 'truncated') && attempt < attempts && !(await snap.unchanged())) continue;
      throw e;
    } finally {
      await snap.close();
    }
    return result;
  }
}

function isGlobal(row: Record<string, RowValue>, storedScope: boolean | undefined, sessionCols: string[]): boolean {
  // A stored scope_key says it; a VIRTUAL one is not in the record, so use what it is computed from:
  // the session_* FK columns, all NULL for global rows (spec §3). A row whose record is damaged
  // from its content on has unreadable session columns: it is listed, with the damage as its error.
  if (storedScope) return row.scope_key === 'global' || row.scope_key instanceof Damaged;
  return sessionCols.every((c) => row[c] === null || row[c] === undefined || row[c] instanceof Damaged);
}

function group(rows: Record<string, RowValue>[]): ExtensionState[] {
  const byExt = new Map<string, ExtensionState>();
  for (const r of rows) {
    const name = String(r.extension_id ?? '');
    let ext = byExt.get(name);
    if (!ext) byExt.set(name, (ext = { name, entries: [], hiddenNil: 0 }));
    const rawKey = typeof r.aggregate_key === 'string' ? r.aggregate_key : String(r.aggregate_key);
    const { key, error: keyError } = parseKey(rawKey);
    const content = r.content;
    const entry: StateEntry = { key, rawKey, bytes: content instanceof Uint8Array ? content.length : 0 };
    if (keyError) entry.keyError = keyError;
    if (typeof r.updated_at === 'number') entry.updatedAt = r.updated_at;
    if (content instanceof Damaged) {
      entry.error = content.reason;
    } else if (content instanceof Uint8Array) {
      try {
        entry.value = thaw(content);
      } catch (e) {
        // A NippyError names what is wrong; anything else is a fault of the decoder, said as such.
        entry.error = e instanceof NippyError ? e.message : t('the decoder failed on this value ({0})', e instanceof Error ? e.message : String(e));
      }
    } else if (content === null || content === undefined) {
      entry.value = null;
    } else {
      entry.error = t('content is a {0}, not a Nippy blob', typeof content);
    }
    if (entry.value === null && !entry.error) {
      ext.hiddenNil++;
      continue;
    }
    ext.entries.push(entry);
  }
  const out = [...byExt.values()];
  out.sort((a, b) => cmp(a.name, b.name));
  for (const e of out) e.entries.sort((a, b) => cmp(a.key, b.key));
  return out;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
