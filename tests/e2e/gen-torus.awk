# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# An ibsim net file of an X x Y x Z torus (awk -v X=3 -v Y=3 -v Z=3):
# 8-port switches "swXYZ" whose ports 1-6 go x+, x-, y+, y-, z+, z-
# (wrapping), and ports 7 and 8 to the CAs "hXYZa" and "hXYZb".
function nm(x, y, z) { return sprintf("sw%d%d%d", x, y, z) }
BEGIN {
	for (x = 0; x < X; x++) for (y = 0; y < Y; y++) for (z = 0; z < Z; z++) {
		printf "Switch\t8 \"%s\"\n", nm(x, y, z)
		printf "[1]\t\"%s\"[2]\t\t# lid 0 4xQDR\n", nm((x + 1) % X, y, z)
		printf "[2]\t\"%s\"[1]\t\t# lid 0 4xQDR\n", nm((x + X - 1) % X, y, z)
		printf "[3]\t\"%s\"[4]\t\t# lid 0 4xQDR\n", nm(x, (y + 1) % Y, z)
		printf "[4]\t\"%s\"[3]\t\t# lid 0 4xQDR\n", nm(x, (y + Y - 1) % Y, z)
		printf "[5]\t\"%s\"[6]\t\t# lid 0 4xQDR\n", nm(x, y, (z + 1) % Z)
		printf "[6]\t\"%s\"[5]\t\t# lid 0 4xQDR\n", nm(x, y, (z + Z - 1) % Z)
		printf "[7]\t\"h%d%d%da\"[1]\t\t# lid 0 4xQDR\n", x, y, z
		printf "[8]\t\"h%d%d%db\"[1]\t\t# lid 0 4xQDR\n\n", x, y, z
	}
	for (x = 0; x < X; x++) for (y = 0; y < Y; y++) for (z = 0; z < Z; z++) {
		printf "Ca\t1 \"h%d%d%da\"\n[1]\t\"%s\"[7]\t\t# lid 0 4xQDR\n\n", x, y, z, nm(x, y, z)
		printf "Ca\t1 \"h%d%d%db\"\n[1]\t\"%s\"[8]\t\t# lid 0 4xQDR\n\n", x, y, z, nm(x, y, z)
	}
}
