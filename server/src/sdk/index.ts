// The SDK table and the SDK profile: what every feature asks about the Vis SDK a file is written for.
//   releases.ts      the known SDK releases (G1, G2, G3 with C1–C3, T2/T4, LS, ST) and vis-agent versions
//   vocabularies.ts  closed vocabularies (tags, phases, op names, presenters, levels, routing verbs...)
//   members.ts       every public member of the SDK modules, as data
//   table.ts         the compiled table and its queries (member, parameters, binding, vocabulary)
//   pep440.ts        vis-agent requirements with PEP 440 semantics
//   profile.ts       the SDK profile of a file from all the evidence (imports, pins, registration, members)
export * from './releases';
export * from './vocabularies';
export * from './table';
export * from './pep440';
export * from './profile';
export type { MemberKind } from './members';
