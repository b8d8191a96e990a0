// The viewer's own sentences (issue 27): a message that names a seat in the third person
// ("{who} rolls {a} and {b}.") reads wrong when that seat is the one looking ("You rolls",
// "Vous fait"). For each such message, the message to use instead when the seat in a placeholder
// is the viewer: its own English msgid, so each language's catalog gives it its own grammar
// ("You roll {a} and {b}." -> "Vous faites {a} et {b}."). A key naming two placeholders ("who
// winner") is used when both are the viewer. js/i18n.js picks these (t(), the story's patterns);
// scripts/i18n.py extracts the right-hand messages so a missing translation is reported.
//
// One entry a line, the value a double-quoted literal (the rule scripts/i18n.py reads).
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
  "the die for {whom}'s mouse": { whom: "the die for your mouse" },
  "{who} has won": { who: "you have won" },
  // --- Mouse Trap's phase (after "Turn {n}: ")
  "{who} to roll": { who: "your turn to roll" },
  "{who} on Turn Crank: crank, pay to move a mouse, or end": { who: "you are on Turn Crank: crank, pay to move a mouse, or end" },
  "{who} on a Build space: build, or end the turn without building": { who: "you are on a Build space: build, or end the turn without building" },
  "{who} chooses whom to take {n} cheese from": { who: "you choose whom to take {n} cheese from" },
  // --- Last Mouse Lost's story
  "{who} pressed {n} mouse in row {row}.": { who: "You pressed {n} mouse in row {row}." },
  "{who} pressed {n} mice in row {row}.": { who: "You pressed {n} mice in row {row}." },
  "{who} pressed mouse {mice} in row {row}.": { who: "You pressed mouse {mice} in row {row}." },
  "{who} pressed mice {mice} in row {row}.": { who: "You pressed mice {mice} in row {row}." },
  "{who} pressed the last mouse and loses round {n}. Score {score}.": { who: "You pressed the last mouse and lose round {n}. Score {score}." },
  "{who} wins the match {score}.": { who: "You win the match {score}." },
  "Drawn by lot: {who} opens round 1.": { who: "Drawn by lot: you open round 1." },
  "Round {n}: {who} opens.": { who: "Round {n}: you open." },
  "{who} opens round 1": { who: "You open round 1" },
  // --- Booby Trap's story
  "{who} passed.": { who: "You passed." },
  "{who} touches piece {piece} ({size}).": { who: "You touch piece {piece} ({size})." },
  "{who} removes piece {piece} ({size}, {n} pt); the bar moved {marks} of a mark. Kept.":
    { who: "You remove piece {piece} ({size}, {n} pt); the bar moved {marks} of a mark. Kept." },
  "{who} removed piece {piece} ({size}) and kept it for {n} point: the spring bar moved {marks} of a mark.":
    { who: "You removed piece {piece} ({size}) and kept it for {n} point: the spring bar moved {marks} of a mark." },
  "{who} removed piece {piece} ({size}) and kept it for {n} points: the spring bar moved {marks} of a mark.":
    { who: "You removed piece {piece} ({size}) and kept it for {n} points: the spring bar moved {marks} of a mark." },
  "{who} removes piece {piece} and the spring bar moves {marks} marks: penalty of 3 points.":
    { who: "You remove piece {piece} and the spring bar moves {marks} marks: penalty of 3 points." },
  "{who} removes piece {piece} and the spring bar moves {marks} marks: penalty of 3 points. {n} more piece(s) jumped out: {pieces}.":
    { who: "You remove piece {piece} and the spring bar moves {marks} marks: penalty of 3 points. {n} more piece(s) jumped out: {pieces}." },
  "{who} pays {what}.": { who: "You pay {what}." },
  "{who} pays nothing and owes {n} points.": { who: "You pay nothing and owe {n} points." },
  "{who} pays {what} and owes {n} points.": { who: "You pay {what} and owe {n} points." },
  "Game over. Scores: {scores}. Winner: {who}": { who: "Game over. Scores: {scores}. Winner: you" },
  // --- Mouse Trap's story
  "{who} rolled {n} and landed on {space}.": { who: "You rolled {n} and landed on {space}." },
  "{who} rolled {n} and came round to {space}.": { who: "You rolled {n} and came round to {space}." },
  "{who} rolls {n} and lands on {m} ({space}).": { who: "You roll {n} and land on {m} ({space})." },
  "{who} goes first.": { who: "You go first." },
  "No rival has cheese for {who} to take.": { who: "No rival has cheese for you to take." },
  "Pay 1 cheese: roll for {whom}'s mouse": { whom: "Pay 1 cheese: roll for your mouse" },
  "Pay 1 cheese to roll for {whom}'s mouse": { whom: "Pay 1 cheese to roll for your mouse" },
  "{who} is not an opponent here": { who: "you are not an opponent here" },
  "{whom}'s mouse has been caught": { whom: "your mouse has been caught" },
  "{whom}'s mouse is on Safe and cannot be moved": { whom: "your mouse is on Safe and cannot be moved" },
  "{whom}'s mouse is already on the Cheese Wheel": { whom: "your mouse is already on the Cheese Wheel" },
  "{who} rolled {n} for {whom}'s mouse, which moved to {space}.": {
    who: "You rolled {n} for {whom}'s mouse, which moved to {space}.",
    whom: "{who} rolled {n} for your mouse, which moved to {space}.",
  },
  "The trap jammed at {letter} ({stage}): {who} escaped to Safe.": { who: "The trap jammed at {letter} ({stage}): you escaped to Safe." },
  "The cage fell on {mice}. {who} took their {n} cheese.": { who: "The cage fell on {mice}. You took their {n} cheese." },
  "The pile is empty and no rival has cheese to take: {who} gets {n} fewer.": { who: "The pile is empty and no rival has cheese to take: you get {n} fewer." },
  "{who} builds {parts}.": { who: "You build {parts}." },
  "{who} does not build and ends the turn.": { who: "You do not build and end the turn." },
  "{who} ends the turn.": { who: "You end the turn." },
  "{who} pays {n} cheese to move {whom}'s mouse.": {
    who: "You pay {n} cheese to move {whom}'s mouse.",
    whom: "{who} pays {n} cheese to move your mouse.",
  },
  "{who} returns {n} cheese to the pile.": { who: "You return {n} cheese to the pile." },
  "{who} takes {n} cheese from {whom}.": { who: "You take {n} cheese from {whom}.", whom: "{who} takes {n} cheese from you." },
  "{who} takes {n} cheese.": { who: "You take {n} cheese." },
  "{who} turns the crank!": { who: "You turn the crank!" },
  "{who} goes to {n} ({space}); its message is not followed.": { who: "You go to {n} ({space}); its message is not followed." },
  "the die for {whom}'s mouse (paid by {who})": {
    who: "the die for {whom}'s mouse (paid by you)",
    whom: "the die for your mouse (paid by {who})",
  },
  "{who}'s mouse is the last one on the board: {winner} wins!": {
    "who winner": "Your mouse is the last one on the board: you win!",
    winner: "{who}'s mouse is the last one on the board: you win!",
  },
  "The trap jams at stage {letter} ({stage}); {who} escape to Safe.": { who: "The trap jams at stage {letter} ({stage}); you escape to Safe." },
  "The cage falls: {mice} caught! {who} takes their {n} cheese.": { who: "The cage falls: {mice} caught! You take their {n} cheese." },
  "Rolled {die}: {whom}'s mouse moves to {n} ({space}).": { whom: "Rolled {die}: your mouse moves to {n} ({space})." },
  // --- 13 Dead End Drive's story
  "The {trap} trap is sprung: {pawn} is knocked off! {who} owned {owned} and lays down the Character card.":
    { who: "The {trap} trap is sprung: {pawn} is knocked off! You owned {owned} and lay down the Character card." },
  "{who} has lost the last Character card and is out of the game, discarding {cards}.":
    { who: "You have lost the last Character card and are out of the game, discarding {cards}." },
  "{who} has lost the last Character card and is out of the game.":
    { who: "You have lost the last Character card and are out of the game." },
  "{who} changes the portrait.": { who: "You change the portrait." },
  "{who} keeps the portrait.": { who: "You keep the portrait." },
  "{who} draws a Detective card: the Detective moves to step {n} of {m}.": { who: "You draw a Detective card: the Detective moves to step {n} of {m}." },
  "{who} draws a card.": { who: "You draw a card." },
  "{who} plays the drawn {card} card.": { who: "You play the drawn {card} card." },
  "{who} plays a {card} card.": { who: "You play a {card} card." },
  "{who} rolls {a} and {b} (doubles).": { who: "You roll {a} and {b} (doubles)." },
  "{who} rolls {a} and {b}.": { who: "You roll {a} and {b}." },
  "{who} rolls highest and goes first.": { who: "You roll highest and go first." },
  "No pawn can move {d}: {who} loses the turn (blocked_die=lose-turn).": { who: "No pawn can move {d}: you lose the turn (blocked_die=lose-turn)." },
  "{why}. {who} wins with {pawn}!": { who: "{why}. You win with {pawn}!" },
  "{why}. Neither player holds the Character card; the secret cards are turned over. {who} wins with {pawn}!":
    { who: "{why}. Neither player holds the Character card; the secret cards are turned over. You win with {pawn}!" },
};
