import { describe, expect, it } from 'vitest';
import { emailKey } from './email-key.ts';

describe('e-mail keys', () => {
  it('gives equal keys to equal addresses, different keys to different ones and secrets', () => {
    expect(emailKey('s', 'A@b.at ')).toBe(emailKey('s', 'a@B.AT'));
    expect(emailKey('s', 'a@b.at')).not.toBe(emailKey('s', 'c@b.at'));
    expect(emailKey('s', 'a@b.at')).not.toBe(emailKey('t', 'a@b.at'));
    expect(emailKey('s', 'a@b.at')).not.toContain('a@b.at');
  });

  it("gives one person's spellings one key", () => {
    expect(emailKey('s', 'Blocked.Reader+tag@uni.example')).toBe(
      emailKey('s', 'blocked.reader@uni.example'),
    );
    expect(emailKey('s', 'b.l.o.c.k.e.d+x@googlemail.com')).toBe(
      emailKey('s', 'blocked@gmail.com'),
    );
    expect(emailKey('s', 'a.b@uni.example')).not.toBe(emailKey('s', 'ab@uni.example'));
  });
});
