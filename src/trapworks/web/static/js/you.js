// The viewer's own sentences (issue 27): a message that names a seat in the third person
// ("{who} rolls {a} and {b}.") reads wrong when that seat is the one looking ("You rolls",
// "Vous fait"). For each such message, the message to use instead when the seat in a placeholder
// is the viewer: its own English msgid, so each language's catalog gives it its own grammar
// ("You roll {a} and {b}." -> "Vous faites {a} et {b}."). A key naming two placeholders ("who
// winner") is used when both are the viewer. js/i18n.js picks these (t(), the story's patterns);
// scripts/i18n.py extracts the right-hand messages so a missing translation is reported.
//
// One entry a line, the value a double-quoted literal (the rule scripts/i18n.py reads).
// The games' log and events are not here: they are typed messages whose "you" forms are variants
// in each game's own catalog (issue 37, trapworks.core.messages).
export const YOU = {
  // --- the page's own words
  "{who} wins.": { who: "You win." },
  "{who} wins": { who: "You win" },
  "{who} moved.": { who: "You moved." },
  "Time ran out: the computer ({level}) played for {who}.": { who: "Time ran out: the computer ({level}) played for you." },
  "Game over: {who} won.": { who: "Game over: you won." },
  "{who} to touch a piece.": { who: "You are to touch a piece." },
  "{who} touched piece {id} and must remove it.": { who: "You touched piece {id} and must remove it." },
  "{who} touched piece {id}: remove it or pass.": { who: "You touched piece {id}: remove it or pass." },
  "Whoever presses the last mouse loses the round; {who} won {n} of the rounds played (final score {n}–{m}).":
    { who: "Whoever presses the last mouse loses the round; you won {n} of the rounds played (final score {n}–{m})." },
  "{who} is to move: {what}": { who: "You are to move: {what}" },
  "Caught in the trap: {who}.": { who: "Caught in the trap: you." },
  "{who} is the last mouse free.": { who: "You are the last mouse free." },
  "{who} won with {pawn} ({why}).": { who: "You won with {pawn} ({why})." },
  "{pawn} wins ({why}) for {who}, who held that character card.": { who: "{pawn} wins ({why}) for you, who held that character card." },
  // --- shared parts of the games' sentences
  "{who}'s mouse": { who: "your mouse" },
  // Mouse Trap's phase, buttons and dice are typed now (their 'you' forms are in its catalog).
};
