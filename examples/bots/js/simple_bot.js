#!/usr/bin/env node
// simple_bot.js: a whist_sim protocol bot for Node (no npm packages), all four games.
//
// Rules, one per kind of decision (a little different from the C bot, so the two are
// not the same player):
//   play a card: to lead, the longest suit's lowest card; to follow, the highest legal
//                card if it would win the trick so far (else the lowest);
//   take (German Whist, open stock): the highest-ranked face-up card;
//   bid: Solo Whist: pass; spoken Minnesota Whist: grand with four or more aces and
//        kings, else pass;
//   lay (Minnesota Whist): a black card (grand) with four or more aces and kings, else a
//        red one (pass), the lowest of its colour;
//   name trump: the suit held most; knock (a Knock-out dog): always when allowed.
//
// Protocol (docs/protocol.md): one JSON object per line on stdin and stdout; unknown
// message types and fields are ignored. Run: node examples/bots/js/simple_bot.js

"use strict";

const readline = require("readline");

const RANKS = "23456789TJQKA";
const SUITS = "SHDC";
const GAMES = ["german_whist", "solo_whist", "minnesota_whist", "knockout_whist"];

const isCard = (name) => name.length === 2 && RANKS.includes(name[0]) && SUITS.includes(name[1]);
const rank = (card) => RANKS.indexOf(card[0]);
const suit = (card) => SUITS.indexOf(card[1]);
const byRank = (a, b) => rank(a) - rank(b);

function beats(card, best, trump) {
  if (suit(card) === suit(best)) return rank(card) > rank(best);
  return suit(card) === trump;
}

function strongCards(hand) {
  return hand.filter((card) => card[0] === "A" || card[0] === "K").length;
}

function choose(view) {
  const legal = view.legal;
  const hand = view.hand || [];
  const trump = view.trump ? SUITS.indexOf(view.trump) : -1;
  const cards = legal.filter(isCard).sort(byRank);

  if (legal.includes("grand")) return strongCards(hand) >= 4 ? "grand" : "pass";
  if (legal.includes("pass")) return "pass";
  if (legal.includes("knock")) return "knock";
  const trumps = legal.filter((action) => action.startsWith("trump:"));
  if (trumps.length) {
    const held = (action) => hand.filter((card) => card[1] === action[6]).length;
    return trumps.reduce((best, action) => (held(action) > held(best) ? action : best));
  }
  if (view.phase === "lay") {
    const black = strongCards(hand) >= 4;
    const wanted = cards.filter((card) => (card[1] === "S" || card[1] === "C") === black);
    return (wanted.length ? wanted : cards)[0];
  }
  if (view.phase === "take") return cards[cards.length - 1];
  const trick = view.trick || [];
  if (trick.length === 0) {
    const length = (card) => cards.filter((other) => other[1] === card[1]).length;
    return cards.reduce((best, card) => (length(card) > length(best) ? card : best));
  }
  let best = trick[0];
  for (const card of trick.slice(1)) if (beats(card, best, trump)) best = card;
  const top = cards[cards.length - 1];
  return beats(top, best, trump) ? top : cards[0];
}

function send(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

const lines = readline.createInterface({ input: process.stdin, terminal: false });
lines.on("line", (line) => {
  if (!line.trim()) return;
  const message = JSON.parse(line);
  switch (message.type) {
    case "hello":
      send({ type: "hello", name: "js_simple", version: "1", protocol: "1.0", games: GAMES });
      break;
    case "decide":
      send({ type: "action", action: choose(message), decision: message.decision });
      break;
    case "quit":
      lines.close();
      break;
    default: // deal, result, and any type a later protocol version adds
      break;
  }
});
lines.on("close", () => process.exit(0));
