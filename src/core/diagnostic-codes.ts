export type DiagnosticCode = string;
