// Placeholder until the condition language lands; replaced by the parser's AST.
export type ConditionAst = { readonly kind: string };
