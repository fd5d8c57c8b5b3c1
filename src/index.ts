export {
  CAIP10_PATTERN,
  CAIP19_PATTERN,
  EMAIL_PATTERN,
  isHttpsUrl,
  isIsoDateTime,
} from './schemas/primitives';
