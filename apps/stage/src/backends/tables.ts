/** The tables of the backends (apps/stage/src/backends), part of StageDatabase. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface BackendTables {}
