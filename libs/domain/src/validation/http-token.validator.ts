import { Matches } from 'class-validator';

/** RFC 9110 `token`: the characters an HTTP header name may use. */
export const HTTP_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export const IsHttpToken = () => Matches(HTTP_TOKEN, { message: '$property must be an HTTP header name (RFC 9110 token)' });
