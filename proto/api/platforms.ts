// The distribution platforms a release can go to: the spec's 142 keys in the spec's order (42 named
// stores, then extra_dsp_1..100), the first 20 preselected on the upload form. The one place they are
// defined: catalog validates releases against them, delivery's store registry has one entry per key.

const NAMED: ReadonlyArray<readonly [key: string, name: string]> = [
  ['spotify', 'Spotify'],
  ['apple_music', 'Apple Music'],
  ['youtube_music', 'YouTube Music'],
  ['youtube_content_id', 'YouTube Content ID'],
  ['amazon_music', 'Amazon Music'],
  ['deezer', 'Deezer'],
  ['tidal', 'TIDAL'],
  ['tiktok', 'TikTok'],
  ['capcut', 'CapCut'],
  ['instagram', 'Instagram'],
  ['facebook', 'Facebook'],
  ['soundcloud', 'SoundCloud'],
  ['audiomack', 'Audiomack'],
  ['boomplay', 'Boomplay'],
  ['pandora', 'Pandora'],
  ['beatport', 'Beatport'],
  ['traxsource', 'Traxsource'],
  ['junodownload', 'Juno Download'],
  ['djcity', 'DJcity'],
  ['beatsource', 'Beatsource'],
  ['qobuz', 'Qobuz'],
  ['7digital', '7digital'],
  ['napster', 'Napster'],
  ['anghami', 'Anghami'],
  ['yandex_music', 'Yandex Music'],
  ['vk_music', 'VK Music'],
  ['netease_cloud', 'NetEase Cloud Music'],
  ['tencent_music', 'Tencent Music'],
  ['kkbox', 'KKBOX'],
  ['line_music', 'LINE MUSIC'],
  ['awa', 'AWA'],
  ['melon', 'Melon'],
  ['genie', 'Genie'],
  ['bugs', 'Bugs!'],
  ['flo', 'FLO'],
  ['joox', 'JOOX'],
  ['saavn', 'JioSaavn'],
  ['gaana', 'Gaana'],
  ['wynk', 'Wynk Music'],
  ['claro_musica', 'Claro Música'],
  ['tim_musica', 'TIM Music'],
  ['uma', 'UMA'],
];

const EXTRA_DSP_COUNT = 100;
const PRESELECTED_COUNT = 20;

export interface PlatformInfo {
  key: string;
  name: string;
}

export const PLATFORMS: readonly PlatformInfo[] = Object.freeze([
  ...NAMED.map(([key, name]) => ({ key, name })),
  ...Array.from({ length: EXTRA_DSP_COUNT }, (_, i) => ({
    key: `extra_dsp_${i + 1}`,
    name: `Extra DSP ${i + 1}`,
  })),
]);

export const PLATFORM_KEYS: readonly string[] = Object.freeze(PLATFORMS.map((p) => p.key));
export const PRESELECTED_KEYS: readonly string[] = Object.freeze(PLATFORM_KEYS.slice(0, PRESELECTED_COUNT));

const KNOWN = new Set(PLATFORM_KEYS);

/**
 * The stores a release goes to: the chosen keys, deduplicated and in the spec's order, or every platform
 * when none is chosen (spec §4). Unknown keys are returned separately so the caller can name them.
 */
export function resolveStores(chosen: readonly string[]): { stores: string[]; unknown: string[] } {
  if (chosen.length === 0) return { stores: [...PLATFORM_KEYS], unknown: [] };
  const unknown = [...new Set(chosen.filter((key) => !KNOWN.has(key)))];
  const wanted = new Set(chosen);
  return { stores: PLATFORM_KEYS.filter((key) => wanted.has(key)), unknown };
}
