print("lanes: the terminal board comes next")
