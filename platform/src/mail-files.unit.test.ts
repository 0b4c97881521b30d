import { describe, expect, it } from 'vitest';
import { mailFileName, mailFileOwner } from './mail-files.ts';

describe('mail file names', () => {
  it('name the owner, who reads back exactly', () => {
    const owner = '0123456789abcdef0123456789abcdef';
    const name = mailFileName(owner, `cancellation:812:${owner}`);
    expect(name).toBe(`${owner}.cancellation_3a812_3a${owner}.eml`);
    expect(mailFileOwner(name)).toBe(owner);
    const odd = 'a.b_c:ü/..';
    const oddName = mailFileName(odd, 'confirmation:x');
    expect(oddName).not.toMatch(/\//);
    expect(mailFileOwner(oddName)).toBe(odd);
  });

  it('read no owner from names they did not make', () => {
    expect(mailFileOwner('confirmation_81900537-dafb-4713-ac1c-93fda949588b.eml')).toBeNull();
    expect(mailFileOwner('README.txt')).toBeNull();
    expect(mailFileOwner('x_zz.y.eml')).toBeNull();
  });
});
