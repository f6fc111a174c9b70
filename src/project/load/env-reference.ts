// Rasa registers this pattern as an implicit YAML resolver, so only plain (unquoted) scalars that contain
// `${...}` are expanded; quoted text such as a response "A payment of ${amount}" stays as written.
export const ENV_REFERENCE = /^(.*)\$\{(.*)\}(.*)$/s;
