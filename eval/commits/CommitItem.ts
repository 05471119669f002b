/**
 * One commit-localization item: a commit's subject asked of its repository as it stood at the
 * parent, judged by the non-test source files the commit changed. Mined by rule from public
 * history (docs/commit-localization.md), never written by hand or chosen by what retrieval returns.
 */
import { Schema } from "effect"
import { Split } from "../Question.ts"

export const CommitItem = Schema.Struct({
  /** `owner/name@` and the commit's first twelve hex digits. */
  id: Schema.String,
  repository: Schema.String,
  commit: Schema.String,
  parent: Schema.String,
  /** Committer time of the commit, in seconds: items of one repository are replayed in this order. */
  committedAt: Schema.Int,
  /** The subject as written. */
  subject: Schema.String,
  /** The subject cleaned of its conventional prefix, issue numbers and bracketed tags: what is asked. */
  query: Schema.String,
  /** Non-test source files the commit changed, by their paths at the parent, in code-unit order. */
  relevant: Schema.Array(Schema.String),
  split: Split
})
export type CommitItem = typeof CommitItem.Type
