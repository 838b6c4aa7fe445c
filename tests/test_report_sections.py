

def test_points_per_hand_shares_are_counted_as_the_standings_count_them():
    """2,878 hands won of 4,000 read 72.0% in the standings and 71.9% here, where the
    shares of each winning score were added (0.71949...): a newcomer's probe."""
    import polars as pl

    from whist_sim.reports.points_section import summary_table

    hands = {-1: 1122, 1: 419, 2: 519, 3: 153, 4: 1331, 5: 456}
    points = pl.DataFrame({"strategy": ["a"] * len(hands), "net": list(hands),
                           "hands": list(hands.values()),
                           "share": [count / 4000 for count in hands.values()]})
    assert sum(points.filter(pl.col("net") > 0)["share"]) < 0.7195  # the sum that misled
    [row] = summary_table(points, "hands").rows
    assert row[2:5] == ["28.1%", "0.0%", "72.0%"]
