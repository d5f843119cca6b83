import { placeholderDataUrl } from './thumbhash-placeholder';

describe('placeholderDataUrl', () => {
  it('decodes a ThumbHash into a PNG data URL', () => {
    // A hash the demo renderer produced for a landscape image.
    const url = placeholderDataUrl('IdgBHJSAeYd1iYaVd3uPxfW6iA==');
    expect(url).toMatch(/^data:image\/png;base64,/);
    expect(placeholderDataUrl('IdgBHJSAeYd1iYaVd3uPxfW6iA==')).toBe(url);
  });

  it('gives null for nothing or garbage', () => {
    expect(placeholderDataUrl('')).toBeNull();
    expect(placeholderDataUrl(null)).toBeNull();
    expect(placeholderDataUrl('***not base64***')).toBeNull();
  });
});
