# ptbench plot --kind c2c: the matrices of PU pairs as heat maps, PUs in topology order.
# Written by ptbench with c2c.dat; to draw it again, restyled:
#     gnuplot c2c.gp > c2c.svg
set terminal svg size 560,520 dynamic noenhanced font 'sans,11' background rgb 'white'
set encoding utf8
set datafile missing 'NaN'
set palette defined (0 '#fff5eb', 1 '#fdae6b', 2 '#e6550d', 3 '#7f2704')
set size ratio -1
set xlabel 'sender PU'
set ylabel 'receiver PU'
set cblabel 'ns, one way'
set tics out nomirror
unset key
set multiplot layout 1,1
set title "fixture: c2c"
set xrange [-0.5:3.5]
set yrange [3.5:-0.5]
set xtics ('0' 0, '2' 1, '1' 2, '3' 3)
set ytics ('0' 0, '2' 1, '1' 2, '3' 3)
plot 'c2c.dat' index 0 using 1:2:($1-0.5):($1+0.5):($2-0.5):($2+0.5):3 with boxxyerror fs solid 1 noborder lc palette, \
  '' index 0 using 1:2:(sprintf('%.0f', $3)) with labels font ',8'
unset multiplot
