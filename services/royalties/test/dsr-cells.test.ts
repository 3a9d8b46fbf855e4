// Cutting a DSR line only where the reader looks gives the same cells as splitting it whole.
import { cellsOf, pickCells } from '../src/domain/statements/dsr-cells';

describe('pickCells', () => {
  const lines = [
    'SR08\t1\t\tA1\t\t\t\tt\tAlbum\tTitle\t\tArtist\t\tQZOMN2600001\t\t\t\t\t\tt\tSong\t\tNova\t\tS1\t2026-09-01\t5\t0\t5',
    'SR08\ta\tb',
    '\t\t\t\t',
    'SR08',
    `SR08${'\tx'.repeat(60)}`,
  ];
  const wanted = [0, 3, 9, 13, 20, 24, 28, 46];

  it.each(lines)('gives the cells split would, at the places asked: %j', (line) => {
    const whole = cellsOf(line);
    const picked = pickCells(line, wanted);
    for (const i of wanted) expect(picked[i]).toBe(whole[i]);
    // Nothing else was cut.
    expect(Object.keys(picked).every((k) => wanted.includes(Number(k)))).toBe(true);
  });
});
