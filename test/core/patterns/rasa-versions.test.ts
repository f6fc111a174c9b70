import { expect } from 'chai';
import { KNOWN_RASA_VERSIONS, checkRasaVersion } from '../../../src/core/patterns/rasa-versions.js';

// `--rasa-version` and `parley.rasa_version` name the Rasa Pro release whose default patterns to use.
describe('checking a Rasa version', () => {
  it('knows the CALM releases, Rasa Pro 3.7 through 3.17', () => {
    expect(KNOWN_RASA_VERSIONS[0]).to.equal('3.7');
    expect(KNOWN_RASA_VERSIONS).to.include.members(['3.10', '3.13', '3.16']);
    expect(KNOWN_RASA_VERSIONS.at(-1)).to.equal('3.17');
  });

  it('accepts a known major.minor, and a patch release of it, as written but trimmed', () => {
    expect(checkRasaVersion('3.7')).to.deep.equal({ ok: true, version: '3.7' });
    expect(checkRasaVersion(' 3.13 ')).to.deep.equal({ ok: true, version: '3.13' });
    expect(checkRasaVersion('3.13.9')).to.deep.equal({ ok: true, version: '3.13.9' });
    expect(checkRasaVersion('3.10.12')).to.deep.equal({ ok: true, version: '3.10.12' });
  });

  it('refuses anything else, naming it and listing the known versions', () => {
    for (const text of ['3.18', '4.1', 'latest', '', 'v3.13', '3.13.x', '3.13.', '3', '3.13.9.1']) {
      const checked = checkRasaVersion(text);
      expect(checked.ok, text).to.equal(false);
      if (checked.ok) continue;
      expect(checked.message, text).to.contain(
        `'${text.trim()}' is not a Rasa version Parley knows; known versions: ${KNOWN_RASA_VERSIONS.join(', ')}`,
      );
    }
  });

  it('explains that an unquoted 3.10 reads as 3.1 in YAML', () => {
    const checked = checkRasaVersion('3.1');
    expect(checked.ok).to.equal(false);
    if (!checked.ok)
      expect(checked.message).to.contain(`(an unquoted 3.10 in YAML is the number 3.1: quote it, "3.10")`);
  });

  it('explains that releases before 3.7 predate CALM', () => {
    for (const [text, release] of [
      ['3.6', '3.6'],
      ['3.0.2', '3.0'],
      ['2.8', '2.8'],
    ] as const) {
      const checked = checkRasaVersion(text);
      expect(checked.ok, text).to.equal(false);
      if (!checked.ok)
        expect(checked.message, text).to.contain(
          `(Rasa ${release} predates CALM, which starts at Rasa Pro 3.7: Parley runs CALM assistants, with flows, not stories or rules)`,
        );
    }
  });

  it('does not say that later or unknown releases predate CALM', () => {
    for (const text of ['3.18', '3.20', '4.1', '3.07', '10.2']) {
      const checked = checkRasaVersion(text);
      expect(checked.ok, text).to.equal(false);
      if (!checked.ok) expect(checked.message, text).to.not.contain('predates');
    }
  });
});
