import { formatMessage } from './chat-format';

describe('formatMessage', () => {
  it('keeps plain text as one segment per line', () => {
    expect(formatMessage('Hello\nthere')).toEqual([[{ text: 'Hello' }], [{ text: 'there' }]]);
  });

  it('puts roleplay *actions* in italics', () => {
    expect(formatMessage('*smiles* "Hi!"')).toEqual([[{ text: 'smiles', italic: true }, { text: ' "Hi!"' }]]);
  });

  it('supports **bold** and _italic_', () => {
    expect(formatMessage('**Stop** _now_')).toEqual([[{ text: 'Stop', bold: true }, { text: ' ' }, { text: 'now', italic: true }]]);
  });

  it('leaves unfinished or spaced markers alone', () => {
    expect(formatMessage('*leans in')).toEqual([[{ text: '*leans in' }]]);
    expect(formatMessage('2 * 3 * 4')).toEqual([[{ text: '2 * 3 * 4' }]]);
    expect(formatMessage('snake_case_name')).toEqual([[{ text: 'snake_case_name' }]]);
  });

  it('shows an action still being written in italics while streaming', () => {
    expect(formatMessage('Hi. *leans', { streaming: true })).toEqual([[{ text: 'Hi. ' }, { text: 'leans', italic: true }]]);
    expect(formatMessage('*smiles* ok *wa', { streaming: true })).toEqual([
      [{ text: 'smiles', italic: true }, { text: ' ok ' }, { text: 'wa', italic: true }],
    ]);
    expect(formatMessage('Total: 2 * 3', { streaming: true })).toEqual([[{ text: 'Total: 2 * 3' }]]);
  });

  it('keeps empty lines (paragraph breaks) and normalises CRLF', () => {
    expect(formatMessage('One\r\n\r\nTwo')).toEqual([[{ text: 'One' }], [], [{ text: 'Two' }]]);
  });

  it('never produces markup from message text', () => {
    expect(formatMessage('<b>hi</b>')).toEqual([[{ text: '<b>hi</b>' }]]);
  });
});
