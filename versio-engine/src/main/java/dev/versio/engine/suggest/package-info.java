/**
 * Proposes a starting config from a target's schemas: identical fields need nothing; fields whose
 * names and types show a rename, a move, a unit change or a type change get a candidate rule;
 * renames the names only partly support are offered for the author to confirm; everything else is
 * listed for the author to decide.
 */
package dev.versio.engine.suggest;
