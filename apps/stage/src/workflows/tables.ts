/** The tables of the workflows (apps/stage/src/workflows), part of StageDatabase. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface WorkflowTables {}
