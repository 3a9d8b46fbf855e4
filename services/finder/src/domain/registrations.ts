// What each registry is missing for one recording. SoundExchange (US digital performance) needs the recording
// with its owner and featured artist; PPL (UK) the recording, its owner and the full line-up; IMPEL (publishing)
// the work and its writers. Every line says which snapshot it was checked against: never "live" unless it was.
import { REGISTRY_NAMES, type Registration, type RegistryConnector } from '../providers/registries/port';
import { nameKey } from './credits/people';
import type { Blocks } from './gaps/gap';
import { checkIswc } from './identifiers';
import type { ReadRecording } from './read-recording';

export interface MissingRegistration {
  text: string;
  evidence: string;
  action: string;
  blocks: Blocks;
}

export const checkedAgainst = (connector: RegistryConnector): string =>
  connector.live
    ? `checked live against ${REGISTRY_NAMES[connector.id]} on ${connector.snapshotDate}`
    : `checked against the ${REGISTRY_NAMES[connector.id]} snapshot of ${connector.snapshotDate}, not live`;

/** Asks every registry; answers at once when they all do (snapshots), else waits for them (live ones). */
export function missingRegistrations(
  read: ReadRecording,
  connectors: RegistryConnector[],
): MissingRegistration[] | Promise<MissingRegistration[]> {
  const { recording, isrc } = read;
  const iswc = checkIswc(recording.legal.iswc);
  const writers = read.writers.map((person) => person.name);
  const answers = connectors.map((connector) => {
    if (connector.kind === 'work')
      return connector.lookupWork({
        iswc: iswc.ok ? iswc.normalised : undefined,
        title: recording.title,
        writers,
      });
    // Without a valid ISRC the recording cannot be looked up; the ISRC gap says so.
    return isrc.ok ? connector.lookupRecording(isrc.normalised) : undefined;
  });
  if (answers.some((answer) => answer instanceof Promise))
    return Promise.all(answers).then((found) => compare(read, connectors, found));
  return compare(read, connectors, answers as (Registration | undefined)[]);
}

function compare(
  read: ReadRecording,
  connectors: RegistryConnector[],
  answers: (Registration | undefined)[],
): MissingRegistration[] {
  const { recording, isrc } = read;
  const missing: MissingRegistration[] = [];
  const musicians = read.musicians.map((person) => person.name);
  const writers = read.writers.map((person) => person.name);
  const iswc = checkIswc(recording.legal.iswc);
  for (const [i, connector] of connectors.entries()) {
    const found = answers[i];
    if (!found) continue;
    const name = REGISTRY_NAMES[connector.id];
    const said = checkedAgainst(connector);
    const add = (text: string, detail: string, action: string, blocks: Blocks) =>
      missing.push({ text: `${name}: ${text}`, evidence: `${detail} (${said}).`, action, blocks });
    if (connector.kind === 'recording') {
      if (!isrc.ok) continue;
      const register = `Register "${recording.title}" (ISRC ${isrc.normalised}) with ${name}`;
      if (!found.registered) {
        add(
          'recording not registered',
          `ISRC ${isrc.normalised} is not in ${name}'s registrations`,
          `${register}, with its owner and ${connector.id === 'ppl' ? 'full performer line-up' : 'featured artist'}.`,
          connector.id === 'ppl'
            ? { ppl: ['owner', 'performers'] }
            : { soundexchange: ['owner', 'featured'] },
        );
        continue;
      }
      if (!found.owner?.trim())
        add(
          'no rights owner on the registration',
          `${name}'s registration of ISRC ${isrc.normalised} names no rights owner`,
          `Claim ownership of "${recording.title}" with ${name}.`,
          { [connector.id]: ['owner'] },
        );
      const registered = new Set((found.performers ?? []).map(nameKey));
      if (connector.id === 'soundexchange' && !registered.has(nameKey(recording.mainArtist)))
        add(
          `featured artist ${recording.mainArtist} not on the registration`,
          `${name}'s registration of ISRC ${isrc.normalised} does not list ${recording.mainArtist}`,
          `Ask ${name} to add ${recording.mainArtist} as the featured artist of "${recording.title}".`,
          { soundexchange: ['featured'] },
        );
      if (connector.id === 'ppl') {
        const absent = musicians.filter((musician) => !registered.has(nameKey(musician)));
        if (absent.length > 0)
          add(
            `line-up incomplete (missing ${absent.join(', ')})`,
            `${name}'s registration of ISRC ${isrc.normalised} lacks ${absent.join(', ')}, credited on the release`,
            `Add ${absent.join(', ')} to the line-up of "${recording.title}" with ${name}.`,
            { ppl: ['performers'] },
          );
      }
    } else {
      if (!found.registered) {
        add(
          'work not registered',
          `The song "${recording.title}"${iswc.ok ? ` (ISWC ${recording.legal.iswc})` : ''} is not in ${name}'s registrations`,
          `Register the song "${recording.title}" with its writers, shares and ISWC through your publisher (${name} members).`,
          { impel: ['publishing'] },
        );
        continue;
      }
      const registered = new Set((found.writers ?? []).map(nameKey));
      const absent = writers.filter((writer) => !registered.has(nameKey(writer)));
      if (absent.length > 0)
        add(
          `writers missing from the work (${absent.join(', ')})`,
          `${name}'s registration of "${recording.title}" lacks ${absent.join(', ')}, credited on the release`,
          `Ask your publisher to add ${absent.join(', ')} to the work's registration with ${name}.`,
          { impel: ['publishing'] },
        );
    }
  }
  return missing;
}
