import { describe, expect, it } from 'vitest';
import { hasSvgRoot } from './image.ts';

describe('an SVG document by its root element', () => {
  it.each([
    '<svg xmlns="http://www.w3.org/2000/svg"/>',
    '<?xml version="1.0"?>\n<!-- plan -->\n<svg xmlns="http://www.w3.org/2000/svg"><g/></svg>\n',
    '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "svg11.dtd"><svg><rect/></svg><!-- end -->',
  ])('accepts %s', (text) => expect(hasSvgRoot(text)).toBe(true));

  it.each([
    '<html><svg></svg></html>',
    '<!DOCTYPE html><svg></svg>',
    '<svg/><html/>',
    '<!DOCTYPE svg [<!ENTITY lol "lol">]><svg>&lol;</svg>',
    '<svgfoo></svgfoo>',
    'text <svg></svg>',
    '<!-- never closed <svg></svg>',
    '',
  ])('refuses %s', (text) => expect(hasSvgRoot(text)).toBe(false));
});
