/**
 * The Rasa versions whose default behaviour Parley knows how to reproduce (`--rasa-version`,
 * `parley.rasa_version`): Rasa Pro 3.7, the first CALM release, through the newest. A version's
 * differences from the newest are the overlays in versions/ (see docs/patterns.md §6).
 */
export const KNOWN_RASA_VERSIONS: readonly string[] = [
  '3.7',
  '3.8',
  '3.9',
  '3.10',
  '3.11',
  '3.12',
  '3.13',
  '3.14',
  '3.15',
  '3.16',
  '3.17',
];

export type RasaVersionCheck =
  { readonly ok: true; readonly version: string } | { readonly ok: false; readonly message: string };

/** A known `major.minor` or `major.minor.patch` (e.g. "3.13" or "3.13.9"), else why not. */
export function checkRasaVersion(text: string): RasaVersionCheck {
  const version = text.trim();
  const match = /^(\d+\.\d+)(\.\d+)?$/.exec(version);
  if (match?.[1] !== undefined && KNOWN_RASA_VERSIONS.includes(match[1])) return { ok: true, version };
  const hint =
    version === '3.1'
      ? ' (an unquoted 3.10 in YAML is the number 3.1: quote it, "3.10")'
      : match?.[1] !== undefined && predatesCalm(match[1])
        ? ` (Rasa ${match[1]} predates CALM, which starts at Rasa Pro 3.7: Parley runs CALM assistants, with flows, not stories or rules)`
        : '';
  return {
    ok: false,
    message: `'${version}' is not a Rasa version Parley knows${hint}; known versions: ${KNOWN_RASA_VERSIONS.join(', ')} (a patch release such as 3.13.9 is also accepted).`,
  };
}

/** A `major.minor` before 3.7, the first CALM release. */
function predatesCalm(majorMinor: string): boolean {
  const [major = 0, minor = 0] = majorMinor.split('.').map(Number);
  return major < 3 || (major === 3 && minor < 7);
}
