"""Every kind of irregularity the mutator writes into a clean hand, by name.

Each kind is a ``Mutation``: given a clean hand (its table line first), the engine's report of
it and a random source, it writes the irregularity at a point it picks among every point where
it can happen in that hand, and says which alert must follow; or None where the hand gives it
no place.
"""

from __future__ import annotations

from engine.mutations.base import Mutation
from engine.mutations.betting import short_bet, short_raise
from engine.mutations.cards import (
    boxed_card,
    burn_face_up,
    burn_left_out,
    burned_twice,
    card_of_another_deck,
    dealt_out_of_order,
    dealt_to_an_empty_seat,
    duplicate_card,
    exposed_first_cards,
    exposed_hole_card,
    premature_card,
    rabbit_hunted,
    switched_card,
)
from engine.mutations.chips import (
    chips_behind_an_all_in,
    chips_off_the_table,
    hidden_chips,
    main_pot_first,
    mucked_winner,
    odd_chip_to_the_wrong_seat,
    rake_over_cap,
    short_award,
    stack_grew,
    tray_moved,
    uncalled_to_another_seat,
    wrong_winner,
)
from engine.mutations.forced import late_blind, short_forced_bet
from engine.mutations.play import acts_after_folding, loser_left_on_the_table

MUTATIONS: dict[str, Mutation] = {
    "stack_grew": stack_grew,
    "duplicate": duplicate_card,
    "switched_card": switched_card,
    "exposed": exposed_hole_card,
    "exposed_first_cards": exposed_first_cards,
    "boxed": boxed_card,
    "dealt_out_of_order": dealt_out_of_order,
    "dealt_to_an_empty_seat": dealt_to_an_empty_seat,
    "rabbit_hunted": rabbit_hunted,
    "mucked_winner": mucked_winner,
    "short_award": short_award,
    "rake_over_cap": rake_over_cap,
    "wrong_winner": wrong_winner,
    "premature": premature_card,
    "uncalled_to_another_seat": uncalled_to_another_seat,
    "main_pot_first": main_pot_first,
    "odd_chip_to_the_wrong_seat": odd_chip_to_the_wrong_seat,
    "hidden_chips": hidden_chips,
    "chips_behind_an_all_in": chips_behind_an_all_in,
    "chips_off_the_table": chips_off_the_table,
    "tray_moved": tray_moved,
    "acts_after_folding": acts_after_folding,
    "loser_left_on_the_table": loser_left_on_the_table,
    "card_of_another_deck": card_of_another_deck,
    "burn_left_out": burn_left_out,
    "burned_twice": burned_twice,
    "burn_face_up": burn_face_up,
    "short_raise": short_raise,
    "short_bet": short_bet,
    "short_forced_bet": short_forced_bet,
    "late_blind": late_blind,
}
