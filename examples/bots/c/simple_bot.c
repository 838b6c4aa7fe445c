/*
 * simple_bot: a whist_sim protocol bot in plain C (C99 + POSIX getline), no libraries.
 *
 * It plays all four games with one simple rule each kind of decision:
 *   play a card:  to lead, the highest-ranked legal card; to follow, the lowest legal
 *                 card that would win the trick so far, else the lowest legal card;
 *   take (German Whist, open stock):  the highest-ranked face-up card;
 *   bid:          pass (Solo Whist, spoken Minnesota Whist);
 *   lay (Minnesota Whist):  the lowest red card (red passes), else the lowest card;
 *   name trump:   the suit it holds most of, among the legal choices;
 *   knock (Knock-out Whist dog):  knock whenever allowed.
 *
 * The engine sends one JSON object per line (docs/protocol.md). This bot needs only a
 * few top-level fields of "decide" (type, phase, legal, trick, trump, hand), so instead
 * of a JSON library it has a small scanner: it walks the top-level object, skipping any
 * value it does not need (strings, nested objects and arrays), and so ignores unknown
 * fields as the protocol asks. Unknown message types are ignored too.
 *
 * Build: gcc -O2 -std=c99 -Wall -Wextra -o simple_bot simple_bot.c
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ITEMS 64   /* legal actions, cards in a hand or a trick: at most 52 + a few */
#define NAME_LEN 32    /* the longest action name is "abundance_declared" */

static const char RANKS[] = "23456789TJQKA";
static const char SUITS[] = "SHDC";

typedef struct {
    int count;
    char item[MAX_ITEMS][NAME_LEN];
} List;

typedef struct {         /* where a top-level value starts in the line, or NULL */
    const char *type, *phase, *legal, *trick, *trump, *hand;
} Fields;

/* -- the scanner --------------------------------------------------------------------- */

static const char *skip_ws(const char *p) {
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
    return p;
}

static const char *skip_string(const char *p) { /* p at the opening quote */
    for (p++; *p && *p != '"'; p++)
        if (*p == '\\' && p[1]) p++;
    return *p ? p + 1 : p;
}

static const char *skip_value(const char *p) {
    p = skip_ws(p);
    if (*p == '"') return skip_string(p);
    if (*p == '{' || *p == '[') {
        int depth = 0;
        while (*p) {
            if (*p == '"') { p = skip_string(p); continue; }
            if (*p == '{' || *p == '[') depth++;
            if (*p == '}' || *p == ']') { depth--; if (depth == 0) return p + 1; }
            p++;
        }
        return p;
    }
    while (*p && *p != ',' && *p != '}' && *p != ']') p++; /* number, true, false, null */
    return p;
}

/* Copy the string at p (at its quote) into out; return 0 if p is not a string. */
static int read_string(const char *p, char *out, size_t size) {
    size_t n = 0;
    p = skip_ws(p);
    if (*p != '"') return 0;
    for (p++; *p && *p != '"'; p++) {
        if (*p == '\\' && p[1]) p++;
        if (n + 1 < size) out[n++] = *p;
    }
    out[n] = '\0';
    return 1;
}

/* Read an array of strings (legal, trick, hand) into list; a missing array is empty. */
static void read_list(const char *p, List *list) {
    list->count = 0;
    if (!p) return;
    p = skip_ws(p);
    if (*p != '[') return;
    p = skip_ws(p + 1);
    while (*p && *p != ']') {
        if (*p == '"' && list->count < MAX_ITEMS)
            read_string(p, list->item[list->count++], NAME_LEN);
        p = skip_ws(skip_value(p));
        if (*p == ',') p = skip_ws(p + 1);
    }
}

static void scan_fields(const char *line, Fields *f) {
    memset(f, 0, sizeof *f);
    const char *p = skip_ws(line);
    if (*p != '{') return;
    p = skip_ws(p + 1);
    while (*p == '"') {
        char key[NAME_LEN];
        read_string(p, key, sizeof key);
        p = skip_ws(skip_string(p));
        if (*p != ':') return;
        const char *value = skip_ws(p + 1);
        if (!strcmp(key, "type")) f->type = value;
        else if (!strcmp(key, "phase")) f->phase = value;
        else if (!strcmp(key, "legal")) f->legal = value;
        else if (!strcmp(key, "trick")) f->trick = value;
        else if (!strcmp(key, "trump")) f->trump = value;
        else if (!strcmp(key, "hand")) f->hand = value;
        p = skip_ws(skip_value(value));
        if (*p == ',') p = skip_ws(p + 1);
    }
}

/* -- cards --------------------------------------------------------------------------- */

static int is_card(const char *name) {
    return strlen(name) == 2 && strchr(RANKS, name[0]) && strchr(SUITS, name[1]);
}
static int rank_of(const char *card) { return (int)(strchr(RANKS, card[0]) - RANKS); }
static int suit_of(const char *card) { return (int)(strchr(SUITS, card[1]) - SUITS); }

static int beats(const char *card, const char *best, int trump) {
    if (suit_of(card) == suit_of(best)) return rank_of(card) > rank_of(best);
    return suit_of(card) == trump;
}

/* The legal card chosen by rank: the highest (want_high) or the lowest; -1 if none. */
static int by_rank(const List *legal, int want_high) {
    int chosen = -1;
    for (int i = 0; i < legal->count; i++) {
        if (!is_card(legal->item[i])) continue;
        if (chosen < 0) { chosen = i; continue; }
        int r = rank_of(legal->item[i]), c = rank_of(legal->item[chosen]);
        if (want_high ? r > c : r < c) chosen = i;
    }
    return chosen;
}

static int find(const List *list, const char *name) {
    for (int i = 0; i < list->count; i++)
        if (!strcmp(list->item[i], name)) return i;
    return -1;
}

/* -- the rules ----------------------------------------------------------------------- */

static const char *choose(const Fields *f) {
    static List legal, trick, hand;
    char phase[NAME_LEN] = "", trump_name[NAME_LEN] = "";
    read_list(f->legal, &legal);
    read_list(f->trick, &trick);
    read_list(f->hand, &hand);
    if (f->phase) read_string(f->phase, phase, sizeof phase);
    int trump = -1;
    if (f->trump && read_string(f->trump, trump_name, sizeof trump_name) && trump_name[0])
        trump = (int)(strchr(SUITS, trump_name[0]) - SUITS);
    if (legal.count == 0) return "pass"; /* never asked: the engine always offers one */

    if (find(&legal, "pass") >= 0) return "pass";   /* Solo auction, spoken Minnesota */
    if (find(&legal, "knock") >= 0) return "knock"; /* a Knock-out dog */

    if (!is_card(legal.item[0]) && !strncmp(legal.item[0], "trump:", 6)) {
        int best = 0, best_count = -1;            /* name the suit held most */
        for (int i = 0; i < legal.count; i++) {
            int suit = (int)(strchr(SUITS, legal.item[i][6]) - SUITS), count = 0;
            for (int j = 0; j < hand.count; j++) count += suit_of(hand.item[j]) == suit;
            if (count > best_count) { best = i; best_count = count; }
        }
        return legal.item[best];
    }
    if (!strcmp(phase, "lay")) {                  /* Minnesota: a red card passes */
        int chosen = -1;
        for (int i = 0; i < legal.count; i++) {
            int suit = suit_of(legal.item[i]);
            if ((suit == 1 || suit == 2) &&
                (chosen < 0 || rank_of(legal.item[i]) < rank_of(legal.item[chosen])))
                chosen = i;
        }
        return legal.item[chosen >= 0 ? chosen : by_rank(&legal, 0)];
    }
    if (!strcmp(phase, "take")) return legal.item[by_rank(&legal, 1)];
    if (trick.count == 0) return legal.item[by_rank(&legal, 1)];

    const char *best = trick.item[0];             /* the card winning the trick so far */
    for (int i = 1; i < trick.count; i++)
        if (beats(trick.item[i], best, trump)) best = trick.item[i];
    int chosen = -1;
    for (int i = 0; i < legal.count; i++)
        if (beats(legal.item[i], best, trump) &&
            (chosen < 0 || rank_of(legal.item[i]) < rank_of(legal.item[chosen])))
            chosen = i;
    return legal.item[chosen >= 0 ? chosen : by_rank(&legal, 0)];
}

int main(void) {
    char *line = NULL;
    size_t size = 0;
    setvbuf(stdout, NULL, _IOLBF, 0);
    while (getline(&line, &size, stdin) != -1) {
        Fields f;
        char type[NAME_LEN] = "";
        scan_fields(line, &f);
        if (!f.type || !read_string(f.type, type, sizeof type)) continue;
        if (!strcmp(type, "hello")) {
            printf("{\"type\":\"hello\",\"name\":\"c_simple\",\"version\":\"1\","
                   "\"protocol\":\"1.0\",\"games\":[\"german_whist\",\"solo_whist\","
                   "\"minnesota_whist\",\"knockout_whist\"]}\n");
        } else if (!strcmp(type, "decide")) {
            printf("{\"type\":\"action\",\"action\":\"%s\"}\n", choose(&f));
        } else if (!strcmp(type, "quit")) {
            break;
        }
        fflush(stdout);
    }
    free(line);
    return 0;
}
