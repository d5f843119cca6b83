import { foldText, normalise } from './normalise';

describe('normalise', () => {
  it('applies NFKC, case folding and accent folding', () => {
    expect(normalise('Ｓ３Ｘ with a TEEN')).toBe('sex with a teen');
    expect(normalise('nüde téen, Niña, Ærøskøbing, Straße')).toBe('nude teen nina aeroskobing strasse');
    expect(normalise('𝐧𝐮𝐝𝐞 ⓒⓗⓘⓛⓓ')).toBe('nude child');
    expect(normalise('ᴄʜɪʟᴅ ɴᴜᴅᴇ')).toBe('child nude');
  });

  it('removes zero-width characters, the soft hyphen and stacked diacritics', () => {
    expect(normalise('n\u200bu\u00add\u2060e\ufeff t\u200c\u200de\u200e\u200fen')).toBe('nude teen');
    expect(normalise('n̴u̷d̸e̵')).toBe('nude');
  });

  it('keeps the letters other scripts are made of', () => {
    expect(normalise('Ребёнок, йод')).toBe('ребенок йод');
    expect(normalise('बच्चा नाबालिग')).toBe('बच्चा नाबालिग');
    expect(normalise('ज़बरदस्ती')).toBe(normalise('जबरदस्ती'));
    expect(normalise('열두 살 여중생')).toBe('열두 살 여중생');
    expect(normalise('十二岁的小学生')).toBe('十二岁的小学生');
  });

  it('undoes leetspeak inside words but keeps numbers', () => {
    expect(normalise('s3xy n00dz L0L1 k!d @ss $ex ch1ld')).toBe('sexy noodz loli kid ass sex child');
    expect(normalise('13 y/o, 15yo, aged 15, 16-year-old')).toBe('13 y o 15yo aged 15 16 year old');
    expect(normalise('wow! it costs $5 @ 3pm')).toBe('wow it costs 5 3pm');
    expect(normalise('१४ साल')).toBe('14 साल');
  });

  it('joins spelled-out words and lets a word start or end inside them', () => {
    expect(normalise('s e x with a k i d')).toBe('sex with akid');
    expect(normalise('n.u.d.e c.h.i.l.d')).toBe('nude child');
    expect(normalise('r-a-p-e, s*e*x, l . o . l . i')).toBe('rape sex loli');
    expect(normalise('S.E.X with a K.I.D')).toBe('sex with a kid');
    expect(normalise('s 3 x')).toBe('sex');
    expect(normalise('强 奸')).toBe('强奸');
    expect(normalise('여.중.생 섹.스')).toBe('여중생 섹스');
    expect(normalise('a b, c d')).toBe('a b c d');
    expect(normalise('a k.i, 강.간')).toBe('a k i 강간');
    const { text, soft } = foldText('with a k i d');
    expect(text).toBe('with akid');
    expect([...soft!.slice(text.indexOf('akid'), text.length + 1)]).toEqual([0, 1, 1, 1, 0]);
    expect(foldText('plain words').soft).toBeNull();
  });

  it('starts a new word where the script changes, except between Latin and Cyrillic or Greek', () => {
    expect(normalise('sex를 12岁 裸体sex 14साल')).toBe('sex 를 12 岁 裸体 sex 14 साल');
  });

  it('reads words mixing Latin and Cyrillic lookalikes both ways, and leaves genuine Russian alone', () => {
    const mixed = foldText('nudе child');
    expect(mixed.text).toBe('nude child');
    expect(mixed.alt).toHaveLength(mixed.text.length);
    expect(foldText('пoрнo').alt).toBe('порно');
    expect(foldText('ѕех').alt).toBe('sex');
    const russian = foldText('секс с ребёнком');
    expect(russian.text).toBe('секс с ребенком');
    expect(russian.alt).toBe('cekc с ребенком');
    expect(foldText('only latin here').alt).toBeNull();
  });

  it('separates words by single spaces, whatever the punctuation', () => {
    expect(normalise('  Hello,   world!!\n\t(ok) —fine… ')).toBe('hello world ok fine');
    expect(normalise('')).toBe('');
    expect(normalise(' \u200b ... ')).toBe('');
  });
});
