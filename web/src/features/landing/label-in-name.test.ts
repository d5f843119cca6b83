import { nameContainingLabel } from './label-in-name';

describe('nameContainingLabel', () => {
  it('keeps a name that contains the visible text', () => {
    expect(nameContainingLabel("I'm interested", "I'm interested in Self AI", 'Self AI')).toBe("I'm interested in Self AI");
    expect(nameContainingLabel('Subscribe', 'Subscribe to VIP Basic', 'VIP Basic')).toBe('Subscribe to VIP Basic');
  });

  it('ignores case, punctuation and spacing', () => {
    expect(nameContainingLabel('Interessiert mich', 'Self AI interessiert mich', 'Self AI')).toBe('Self AI interessiert mich');
    expect(nameContainingLabel('Ça m’intéresse', 'Ça m’intéresse\u00a0: Self AI', 'Self AI')).toBe('Ça m’intéresse\u00a0: Self AI');
  });

  it('leads with the visible text when the name does not contain it', () => {
    expect(nameContainingLabel('我感兴趣', '我对“AI 分身”感兴趣', 'AI 分身')).toBe('我感兴趣: AI 分身');
    expect(nameContainingLabel('मेरी रुचि है', 'मेरी सेल्फ़ AI में रुचि है', 'सेल्फ़ AI')).toBe('मेरी रुचि है: सेल्फ़ AI');
  });
});
