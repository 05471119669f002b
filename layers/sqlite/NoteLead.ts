/**
 * `notes.lead_chunk`: the chunk a note is shown by, its first by line with ties broken by id, as
 * the reference store orders a note's chunks. One rule for every SQL backend that writes notes.
 */
import { compareIds } from "../../src/domain/Ranking.ts"

export const leadChunk = <R extends { readonly id: string; readonly line_start: number }>(rows: ReadonlyArray<R>): R | undefined => {
  let lead: R | undefined
  for (const row of rows) {
    if (lead === undefined || row.line_start < lead.line_start || (row.line_start === lead.line_start && compareIds(row.id, lead.id) < 0)) lead = row
  }
  return lead
}
